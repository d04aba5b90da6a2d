import java.util.ArrayList;
import java.util.List;

/** Keeps 16 MB arrays until the heap runs out. */
public class Hog {
    public static void main(String[] args) {
        List<long[]> blocks = new ArrayList<>();
        while (true) blocks.add(new long[2 << 20]);
    }
}

import java.nio.file.Files;
import java.nio.file.Path;

/** Copies input.txt's first line into next_state.txt and writes a one-line traverse_log.txt. */
public class Main {
    public static void main(String[] args) throws Exception {
        String first = Files.readAllLines(Path.of("input.txt")).get(0);
        Files.writeString(Path.of("next_state.txt"), "java " + first + "\n");
        Files.writeString(Path.of("traverse_log.txt"), "Node,Depth,Value\n");
    }
}

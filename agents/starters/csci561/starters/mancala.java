/*
 * CSCI-561 Mancala homework: your program, in Java. The course builds and runs it as
 *
 *     javac mancala.java && java mancala -i input.txt
 *
 * reads the input file (task, player, cut-off depth, the board) and writes next_state.txt and,
 * for MiniMax and Alpha-Beta, traverse_log.txt in the folder it runs in. This starter reads the
 * input and writes the files in the course's formats; the rules and the searches are yours to
 * write (the methods that throw NotWrittenYet). Until they are written, it writes files that say
 * so, and the check shows "not written yet: <method>" where it expected your answer.
 *
 * The conventions the course's official cases settle (the kit's README lists them all): you are
 * the max player; pits are tried left to right (B2, B3, ... for player 1, A2, A3, ... for player 2),
 * ties go to the first; a move ending in your own mancala is a free turn and keeps the depth (still
 * expanded at the cut-off); a position is worth your mancala minus the opponent's.
 */
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class mancala {
    static final long INFINITY = Long.MAX_VALUE, MINUS_INFINITY = Long.MIN_VALUE;

    /** What a method of this starter throws until you write it. */
    static class NotWrittenYet extends RuntimeException {
        NotWrittenYet(String method) {
            super(method);
        }
    }

    /** The input's board: top is player 2's row, bottom player 1's, each left to right as the figure shows them. */
    static class Board {
        int[] top, bottom;
        int topStore, bottomStore;

        Board(int[] top, int[] bottom, int topStore, int bottomStore) {
            this.top = top;
            this.bottom = bottom;
            this.topStore = topStore;
            this.bottomStore = bottomStore;
        }

        /** next_state.txt's four lines. */
        List<String> lines() {
            return Arrays.asList(row(top), row(bottom), String.valueOf(topStore), String.valueOf(bottomStore));
        }

        private static String row(int[] pits) {
            StringBuilder b = new StringBuilder();
            for (int k = 0; k < pits.length; k++) b.append(k == 0 ? "" : " ").append(pits[k]);
            return b.toString();
        }
    }

    /** The course runs `java mancala -i input.txt`: the path after -i; without it, input.txt. */
    static String inputPath(String[] args) {
        for (int k = 0; k + 1 < args.length; k++) if (args[k].equals("-i")) return args[k + 1];
        return "input.txt";
    }

    /** A value as the traverse log prints it: Infinity, -Infinity, or a whole number. */
    static String valueText(long v) {
        return v == INFINITY ? "Infinity" : v == MINUS_INFINITY ? "-Infinity" : String.valueOf(v);
    }

    /** Appends one line of MiniMax's traverse log: Node,Depth,Value. */
    static void logLine(List<String> log, String name, int depth, long value) {
        log.add(name + "," + depth + "," + valueText(value));
    }

    /** Appends one line of Alpha-Beta's traverse log: Node,Depth,Value,Alpha,Beta. */
    static void logLine(List<String> log, String name, int depth, long value, long alpha, long beta) {
        log.add(name + "," + depth + "," + valueText(value) + "," + valueText(alpha) + "," + valueText(beta));
    }

    /**
     * Sows pit `pit` (0 = the leftmost) of `player` (1 or 2) and returns the new board; sets
     * again[0] when `player` moves again. Counterclockwise, into your own mancala but not the
     * opponent's; the last stone in an empty pit of your own row captures it and the opposite pit
     * (even an empty one); when either row is empty the game is over and each row goes to its
     * owner's mancala.
     */
    static Board play(Board board, int player, int pit, boolean[] again) {
        throw new NotWrittenYet("play(board, player, pit, again): sowing a pit, captures, free turns and the end of the game");
    }

    /** Task 1: the board after the best move at cut-off depth 1 (and your free turns after it). */
    static Board greedy(Board board, int player) {
        throw new NotWrittenYet("greedy(board, player): task 1, the next state after the best move at depth 1");
    }

    /** Task 2: the board after MiniMax's move; adds the traverse log's lines to `log` with logLine. */
    static Board minimax(Board board, int player, int depth, List<String> log) {
        throw new NotWrittenYet("minimax(board, player, depth, log): task 2, the next state and the traverse log");
    }

    /** Task 3: as minimax, pruning; each log line also has alpha and beta. */
    static Board alphabeta(Board board, int player, int depth, List<String> log) {
        throw new NotWrittenYet("alphabeta(board, player, depth, log): task 3, the next state and the traverse log with alpha and beta");
    }

    static void writeLines(String name, List<String> lines) throws IOException {
        try (PrintWriter out = new PrintWriter(name, "UTF-8")) {
            for (String line : lines) out.print(line + "\n");
        }
    }

    public static void main(String[] args) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(inputPath(args)))) if (!line.trim().isEmpty()) lines.add(line.trim());
        int task = Integer.parseInt(lines.get(0)), player = Integer.parseInt(lines.get(1)), depth = Integer.parseInt(lines.get(2));
        Board board = new Board(ints(lines.get(3)), ints(lines.get(4)), Integer.parseInt(lines.get(5)), Integer.parseInt(lines.get(6)));
        String header = task == 2 ? "Node,Depth,Value" : task == 3 ? "Node,Depth,Value,Alpha,Beta" : null;
        List<String> log = new ArrayList<>();
        if (header != null) log.add(header);
        Board after;
        try {
            // Task 4 (the competition) is not graded: greedy plays it.
            after = task == 2 ? minimax(board, player, depth, log) : task == 3 ? alphabeta(board, player, depth, log) : greedy(board, player);
        } catch (NotWrittenYet e) {
            // The files say what is missing, so the check shows it where it expected your answer.
            String what = "not written yet: " + e.getMessage();
            System.err.println(what);
            writeLines("next_state.txt", Arrays.asList(what));
            if (header != null) writeLines("traverse_log.txt", Arrays.asList(header, what));
            return;
        }
        writeLines("next_state.txt", after.lines());
        if (header != null) writeLines("traverse_log.txt", log);
    }

    static int[] ints(String line) {
        return Arrays.stream(line.split("\\s+")).mapToInt(Integer::parseInt).toArray();
    }
}

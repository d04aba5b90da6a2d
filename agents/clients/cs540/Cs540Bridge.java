import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs a CS540 student's Player over the grader's stdio protocol (agents/clients/PROTOCOL.md), so
 * that the file the course asks for, <name>Player.java, is graded unchanged. Each move request
 * becomes a GameState seen from the player to move; the player's move(GameState) runs in a thread
 * of its own while this one reports `move` each time it holds a new legal bin (the anytime rule:
 * when time runs out, the grader plays the last report, as the course's framework plays the
 * `move` last set, which it never resets between turns). A player still searching when its time
 * is up is answered for, then the program exits: the grader starts it afresh for the next move,
 * its start not charged, as the course's framework interrupts it.
 *
 * Usage: java -cp . Cs540Bridge <PlayerClass>
 */
public final class Cs540Bridge {
    /**
     * Of the move's time: the answer goes by this share of the wall clock, or of CPU time, the
     * JVM's own compilers and collector left out as the grader leaves them out (ownThreads).
     */
    private static final double WALL_SHARE = 0.8, CPU_SHARE = 0.7;
    /** The most of the JVM's own work left out of a move: half its time, at least 250 ms (the grader's cap: half the move's limit, which is longer). */
    private static double exemptCapMs(long timeMs) {
        return Math.max(250, 0.5 * timeMs);
    }
    /** HotSpot's names (15 bytes, as /proc shows them) of its compiler and collector threads: framework/sandbox/meters/runtime-clock.ts. */
    private static final Pattern JVM_OWN = Pattern.compile("C[12] CompilerThre|VM Thread|GC Thread#\\d+|G1 .*");
    private static final Path TASKS = Paths.get("/proc/self/task");
    /** What the kit's starter throws (UnsupportedOperationException) from a function not written yet, and how the grader is told. */
    private static final String NOT_WRITTEN = "not written yet: ", UNFINISHED_MARK = "failed: NotImplementedYet: ";

    public static void main(String[] args) throws Exception {
        Player player = newPlayer(args[0]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Map<String, Object> hello = MancalaAgent.object(in.readLine());
        if (!Double.valueOf(1).equals(hello.get("protocol"))) throw new IllegalStateException("this bridge speaks protocol 1, got " + hello.get("protocol"));
        player.initialize(args[0], 1);
        // The clock's own first readings load JMX and walk /proc in a cold JVM: 40-60 ms of CPU on a
        // slow machine, which the grader charges to the move and a clock started after them does not
        // see. Done here, in the start-up the grader does not charge.
        List<Path> own = ownThreads();
        cpuNs();
        ticksMs(own);
        send("{\"type\":\"ready\",\"name\":" + MancalaAgent.quote(player.getDisplayName()) + "}");
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            // The move's clock starts as the request arrives, as the grader's does, before it is read.
            Clock clock = new Clock(own);
            Map<String, Object> m = MancalaAgent.object(line);
            if (!"move".equals(m.get("type"))) continue;
            if (!answer(player, m, clock)) {
                System.out.flush();
                System.exit(0);
            }
        }
    }

    private static Player newPlayer(String name) throws Exception {
        Class<?> cls;
        try {
            cls = Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw fail("no class " + name + " was compiled: the player's class must be named as its file, <name>Player");
        }
        if (!Player.class.isAssignableFrom(cls)) throw fail(name + " does not extend Player (the course's Player class)");
        try {
            return (Player) cls.getDeclaredConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw fail(name + " has no constructor without arguments: the course's framework creates players with new " + name + "()");
        }
    }

    private static IllegalStateException fail(String message) {
        System.err.println(message);
        System.exit(2);
        return new IllegalStateException(message);
    }

    /** Where a move's clock started: wall and process CPU time, and the JVM's own threads' ticks. */
    private static final class Clock {
        final List<Path> own;
        final long startNs = System.nanoTime(), cpuStart = cpuNs();
        final double ownStart;

        Clock(List<Path> own) {
            this.own = own;
            ownStart = ticksMs(own);
        }
    }

    /** Answers one request, timed from `clock`; false when the player is still searching (the program must then end). */
    private static boolean answer(Player player, Map<String, Object> m, Clock clock) throws InterruptedException {
        int id = ((Double) m.get("id")).intValue();
        int[] mine = ints(m.get("mine")), theirs = ints(m.get("theirs")), legal = ints(m.get("legal"));
        long timeMs = ((Double) m.get("timeMs")).longValue();
        GameState state = new GameState(0);
        for (int bin = 0; bin < 6; bin++) {
            state.state[bin] = mine[bin];
            state.state[bin + 7] = theirs[bin];
        }
        state.state[6] = ((Double) m.get("myStore")).intValue();
        state.state[13] = ((Double) m.get("theirStore")).intValue();

        Throwable[] thrown = {null};
        Thread search = new Thread(() -> {
            try {
                player.move(state);
            } catch (Throwable t) {
                thrown[0] = t;
            }
        }, "player-move");
        search.setDaemon(true);
        List<Path> own = clock.own;
        long startNs = clock.startNs, cpuStart = clock.cpuStart;
        double ownStart = clock.ownStart, ownMs = 0;
        search.start();
        int reported = Integer.MIN_VALUE;
        while (true) {
            search.join(5);
            int move = player.move;
            if (move != reported && isLegal(move, legal)) {
                send("{\"type\":\"report\",\"id\":" + id + ",\"move\":" + move + "}");
                reported = move;
            }
            if (!search.isAlive()) break;
            double wallMs = (System.nanoTime() - startNs) / 1e6;
            // The JVM's own time only grows: /proc is read again only when the time with the last reading left out says time is up.
            double processMs = (cpuNs() - cpuStart) / 1e6;
            if (processMs - ownMs >= CPU_SHARE * timeMs) ownMs = Math.min(exemptCapMs(timeMs), ticksMs(own) - ownStart);
            if (wallMs >= WALL_SHARE * timeMs || processMs - ownMs >= CPU_SHARE * timeMs) break;
        }
        // Time is up and `move` is no legal bin now (a fresh player's 0 on an empty bin): answering it
        // would forfeit where the course keeps the move set earlier. Say nothing and let the search
        // run on: the grader judges the turn late, and under the course's rules plays that move.
        if (search.isAlive() && !isLegal(player.move, legal)) search.join();
        if (thrown[0] != null) {
            // A starter's function not written yet: one line the grader reads as an unfinished part
            // (failed games naming the function), not as a crash with a stack trace.
            String message = thrown[0].getMessage();
            if (thrown[0] instanceof UnsupportedOperationException && message != null && message.startsWith(NOT_WRITTEN)) {
                System.err.println(UNFINISHED_MARK + message.substring(NOT_WRITTEN.length()));
                System.exit(1);
            }
            System.err.println(player.getClass().getName() + ".move threw " + thrown[0]);
            thrown[0].printStackTrace();
            System.exit(1);
        }
        send("{\"id\":" + id + ",\"move\":" + player.move + "}");
        return !search.isAlive();
    }

    private static boolean isLegal(int move, int[] legal) {
        return Arrays.stream(legal).anyMatch(m -> m == move);
    }

    private static long cpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /**
     * The JVM's own threads as the grader picks them: per HotSpot name, the one that started first
     * (the JVM starts them before loading a class of the player; a thread the player names so starts later).
     * None when /proc cannot be read: then the whole process's CPU time counts.
     */
    private static List<Path> ownThreads() {
        Map<String, long[]> first = new HashMap<>();
        Map<String, Path> chosen = new HashMap<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat = read(task.resolve("stat"));
                if (stat == null) continue;
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (!JVM_OWN.matcher(name).matches()) continue;
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long start = Long.parseLong(f[22 - 3]), tid = Long.parseLong(task.getFileName().toString());
                long[] seen = first.get(name);
                if (seen == null || start < seen[0] || (start == seen[0] && tid < seen[1])) {
                    first.put(name, new long[] {start, tid});
                    chosen.put(name, task);
                }
            }
        } catch (Exception e) {
            return List.of();
        }
        return new ArrayList<>(chosen.values());
    }

    /** utime + stime of `tasks`, ms (10 ms ticks); a thread gone counts 0 from then on, which only shortens the player's time. */
    private static double ticksMs(List<Path> tasks) {
        long ticks = 0;
        for (Path task : tasks) {
            String stat = read(task.resolve("stat"));
            if (stat == null) continue;
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks += Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
        }
        return ticks * 10.0;
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (Exception e) {
            return null;
        }
    }

    private static int[] ints(Object list) {
        return ((List<?>) list).stream().mapToInt(x -> ((Double) x).intValue()).toArray();
    }

    private static void send(String line) {
        System.out.print(line + "\n");
        System.out.flush();
    }
}

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Client of the mancala-autograder stdio protocol, version 1 (agents/clients/PROTOCOL.md). One file,
 * no dependencies: implement {@link Chooser} and call {@code MancalaAgent.run("my-name", chooser)}.
 * stdout carries the protocol: print your own logs to System.err.
 */
public final class MancalaAgent {
    /** What the student writes: a move for the request. */
    public interface Chooser {
        Answer choose(Request request);
    }

    /** A move request. mine[m] is the pit move m empties; legal holds the moves you may play. */
    public static final class Request {
        public int id;
        public String side;
        public int[] mine, theirs, legal;
        public int myStore, theirStore;
        /** the search depth the task asks for, or null */
        public Integer depth;
        public long timeMs;
        /** the game's rules, as the hello named them (pits, seeds, freeTurn, capture, gameEnd, …: PROTOCOL.md) */
        public Map<String, Object> rules;
        /** the whole message, for fields this class does not name */
        public Map<String, Object> raw;
    }

    /** An answer: the move, and what the task asks for besides (null fields are not sent). */
    public static final class Answer {
        public final int move;
        public Double value;
        public Long nodes;
        /** heuristic calls your search made */
        public Long evaluations;
        public int[] pv;
        public List<String> log;

        public Answer(int move) { this.move = move; }
        public Answer value(double v) { value = v; return this; }
        public Answer nodes(long n) { nodes = n; return this; }
        public Answer evaluations(long n) { evaluations = n; return this; }
    }

    public static void run(String name, Chooser chooser) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Map<String, Object> hello = object(in.readLine());
        if (!Double.valueOf(1).equals(hello.get("protocol"))) throw new IllegalStateException("this client speaks protocol 1, got " + hello.get("protocol"));
        @SuppressWarnings("unchecked")
        Map<String, Object> rules = hello.get("game") instanceof Map<?, ?> game && game.get("rules") instanceof Map<?, ?> r ? (Map<String, Object>) r : Map.of();
        send("{\"type\":\"ready\",\"name\":" + quote(name) + "}");
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            Map<String, Object> m = object(line);
            if (!"move".equals(m.get("type"))) continue; // a later protocol's message this client does not know
            Request r = new Request();
            r.raw = m;
            r.id = ((Double) m.get("id")).intValue();
            r.side = (String) m.get("side");
            r.mine = ints(m.get("mine"));
            r.theirs = ints(m.get("theirs"));
            r.legal = ints(m.get("legal"));
            r.myStore = ((Double) m.get("myStore")).intValue();
            r.theirStore = ((Double) m.get("theirStore")).intValue();
            r.depth = m.get("depth") instanceof Double d ? d.intValue() : null;
            r.timeMs = ((Double) m.get("timeMs")).longValue();
            r.rules = rules;
            Answer a = chooser.choose(r);
            StringBuilder out = new StringBuilder("{\"id\":" + r.id + ",\"move\":" + a.move);
            if (a.value != null) out.append(",\"value\":").append(a.value);
            if (a.nodes != null) out.append(",\"nodes\":").append(a.nodes);
            if (a.evaluations != null) out.append(",\"evaluations\":").append(a.evaluations);
            if (a.pv != null) out.append(",\"pv\":").append(java.util.Arrays.toString(a.pv).replace(" ", ""));
            if (a.log != null) out.append(",\"log\":[").append(String.join(",", a.log.stream().map(MancalaAgent::quote).toList())).append("]");
            send(out.append("}").toString());
        }
    }

    private static void send(String line) {
        System.out.print(line + "\n");
        System.out.flush();
    }

    private static int[] ints(Object list) {
        return ((List<?>) list).stream().mapToInt(x -> ((Double) x).intValue()).toArray();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    // ---- a small JSON reader: objects, arrays, strings, numbers (as Double), true, false, null ----

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String line) {
        if (line == null) System.exit(0); // the grader closed stdin: the game is over
        int[] at = {0};
        return (Map<String, Object>) value(line, at);
    }

    private static Object value(String s, int[] at) {
        skip(s, at);
        char c = s.charAt(at[0]);
        if (c == '{') {
            Map<String, Object> m = new LinkedHashMap<>();
            at[0]++;
            skip(s, at);
            if (s.charAt(at[0]) == '}') { at[0]++; return m; }
            while (true) {
                skip(s, at);
                String key = (String) value(s, at);
                skip(s, at);
                at[0]++; // ':'
                m.put(key, value(s, at));
                skip(s, at);
                if (s.charAt(at[0]++) == '}') return m;
            }
        }
        if (c == '[') {
            List<Object> l = new ArrayList<>();
            at[0]++;
            skip(s, at);
            if (s.charAt(at[0]) == ']') { at[0]++; return l; }
            while (true) {
                l.add(value(s, at));
                skip(s, at);
                if (s.charAt(at[0]++) == ']') return l;
            }
        }
        if (c == '"') {
            StringBuilder b = new StringBuilder();
            for (at[0]++; s.charAt(at[0]) != '"'; at[0]++) {
                char d = s.charAt(at[0]);
                if (d != '\\') { b.append(d); continue; }
                char e = s.charAt(++at[0]);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> { b.append((char) Integer.parseInt(s.substring(at[0] + 1, at[0] + 5), 16)); at[0] += 4; }
                    default -> b.append(e);
                }
            }
            at[0]++;
            return b.toString();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (s.startsWith(word, at[0])) {
                at[0] += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word);
            }
        }
        int start = at[0];
        while (at[0] < s.length() && "+-0123456789.eE".indexOf(s.charAt(at[0])) >= 0) at[0]++;
        return Double.valueOf(s.substring(start, at[0]));
    }

    private static void skip(String s, int[] at) {
        while (at[0] < s.length() && Character.isWhitespace(s.charAt(at[0]))) at[0]++;
    }
}

/**
 * A greedy agent over the stdio protocol (agents/clients/PROTOCOL.md), in Java: a move whose last
 * stone lands in its own store (the one nearest the store first), else a move that at least
 * reaches the store, else the first legal move. MancalaAgent.java, the client, is provided by
 * the grader (agents/clients/java); a copy beside this file would be used instead.
 */
public final class GreedyAgent {
    public static void main(String[] args) throws java.io.IOException {
        MancalaAgent.run("java-greedy", GreedyAgent::choose);
    }

    static MancalaAgent.Answer choose(MancalaAgent.Request r) {
        int n = r.mine.length;
        Integer lands = null, reaches = null;
        for (int m : r.legal) {
            if (r.mine[m] == n - m) lands = m; // the last such move is the nearest the store
            else if (r.mine[m] > n - m && reaches == null) reaches = m;
        }
        int move = lands != null ? lands : reaches != null ? reaches : r.legal[0];
        return new MancalaAgent.Answer(move).value(lands != null ? 1 : 0).nodes(1);
    }
}

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Depth-limited alpha-beta over the stdio protocol (agents/clients/PROTOCOL.md), in Java, searched
 * the way the project's reference agent {@code alphabeta} searches (README, search semantics), so
 * that it chooses the same move and finds the same value and node count at the same depth:
 * <ul>
 *   <li>moves are tried pit 0 first, then 1, 2, ... (the order of {@code legal} on the kalah profile);</li>
 *   <li>AIMA fail-soft alpha-beta: the player to move at the root maximises, the other minimises; a
 *       max node prunes when v &gt;= beta, a min node when v &lt;= alpha; every child gets the
 *       parent's current window, free-turn children too;</li>
 *   <li>the root keeps the first best move: a later move must be strictly better to replace it;</li>
 *   <li>a position at the depth limit is worth the root player's store minus the opponent's (the
 *       basic heuristic); a finished game is worth its final score (each side's remaining stones
 *       swept into its store) unless options.terminal is "heuristic", when it is valued as it stands;</li>
 *   <li>the depth is the request's; every move is a level, or with options.unit "turn" a move that
 *       earns a free turn keeps its level;</li>
 *   <li>a last stone in the mover's store earns a free turn, unless options.freeTurns is "ignore",
 *       when the players simply alternate;</li>
 *   <li>{@code nodes} counts the positions the search visited, the root included (the client's
 *       Answer has no field for the heuristic calls, which the Python example sends as well).</li>
 * </ul>
 * It plays Kalah, the rules of the kalah profile (the default of {@code mancala match}): a capture
 * takes the opposite pit when the last stone lands in an empty pit of the mover's own and the
 * opposite pit holds stones; the game ends when either row is empty. The hello line names the game's
 * rules, but the client reads it for us and a move request does not repeat them, so under another
 * profile this example still searches by Kalah's rules (its moves stay legal; its choices may not
 * be the best).
 * <p>
 * A position is an array of 2n + 2 numbers seen from the root player, "me", as the request gives it:
 * {@code board[0 .. n-1]} my pits ({@code mine}) in sowing order, {@code board[n]} my store,
 * {@code board[n+1 .. 2n]} the opponent's pits ({@code theirs}) in its sowing order,
 * {@code board[2n+1]} the opponent's store. Sowing runs to increasing indices and wraps round; pit i
 * is opposite pit 2n - i. The player to move is ME (0) or THEM (1).
 * <p>
 * MancalaAgent.java, the client, is provided by the grader (agents/clients/java); a copy beside
 * this file would be used instead.
 */
public final class AlphaBetaAgent {
    static final int ME = 0, THEM = 1;
    /** With no depth in the request (null, or a negative depth: no limit) this example searches this deep. */
    static final int DEFAULT_DEPTH = 6;
    /** Larger than any value a position can have. */
    static final int INFINITY = Integer.MAX_VALUE;

    public static void main(String[] args) throws java.io.IOException {
        MancalaAgent.run("java-alphabeta", AlphaBetaAgent::choose);
    }

    static MancalaAgent.Answer choose(MancalaAgent.Request r) {
        int n = r.mine.length;
        int[] board = new int[2 * n + 2];
        System.arraycopy(r.mine, 0, board, 0, n);
        board[n] = r.myStore;
        System.arraycopy(r.theirs, 0, board, n + 1, n);
        board[2 * n + 1] = r.theirStore;
        int depth = r.depth == null || r.depth < 0 ? DEFAULT_DEPTH : r.depth;
        Object options = r.raw.get("options");
        Search search = new Search(options instanceof Map<?, ?> m ? m : Map.of());
        int[] best = search.bestMove(board, depth);
        return new MancalaAgent.Answer(best[0]).value(best[1]).nodes(search.nodes);
    }

    /** A position after a move: the board, the player to move next, whether the game is over. */
    record Position(int[] board, int player, boolean over) {}

    static int pits(int[] board) {
        return (board.length - 2) / 2;
    }

    /** The index of {@code player}'s pit {@code move} (its pit 0 is the first it sows from). */
    static int pitIndex(int[] board, int player, int move) {
        return player == ME ? move : pits(board) + 1 + move;
    }

    static int storeOf(int[] board, int player) {
        return player == ME ? pits(board) : 2 * pits(board) + 1;
    }

    static boolean isOwnPit(int[] board, int player, int cell) {
        int n = pits(board);
        return player == ME ? cell < n : cell > n && cell < 2 * n + 1;
    }

    static int rowSum(int[] board, int player) {
        int sum = 0;
        for (int move = 0; move < pits(board); move++) sum += board[pitIndex(board, player, move)];
        return sum;
    }

    /** The moves {@code player} may play, in the order the search tries them: pit 0 first. */
    static List<Integer> legalMoves(int[] board, int player) {
        List<Integer> moves = new ArrayList<>();
        for (int move = 0; move < pits(board); move++) if (board[pitIndex(board, player, move)] > 0) moves.add(move);
        return moves;
    }

    /** {@code player} sows its pit {@code move}. */
    static Position sow(int[] before, int player, int move, boolean freeTurns) {
        int n = pits(before);
        int[] board = before.clone();
        int ownStore = storeOf(board, player);
        int theirStore = storeOf(board, 1 - player);
        int cell = pitIndex(board, player, move);
        int stones = board[cell];
        board[cell] = 0;
        while (stones > 0) {
            cell = (cell + 1) % board.length;
            if (cell != theirStore) { // the opponent's store is skipped
                board[cell]++;
                stones--;
            }
        }
        int next;
        if (freeTurns && cell == ownStore) {
            next = player; // a free turn
        } else {
            int opposite = 2 * n - cell;
            if (isOwnPit(board, player, cell) && board[cell] == 1 && board[opposite] > 0) {
                board[ownStore] += board[opposite] + 1; // a capture: both pits go to the mover's store
                board[cell] = 0;
                board[opposite] = 0;
            }
            next = 1 - player;
        }
        boolean over = rowSum(board, ME) == 0 || rowSum(board, THEM) == 0;
        return new Position(board, next, over);
    }

    static final class Search {
        final boolean turnUnit, sweepFinishedGames, freeTurns;
        long nodes = 0;

        Search(Map<?, ?> options) {
            turnUnit = "turn".equals(options.get("unit"));
            sweepFinishedGames = !"heuristic".equals(options.get("terminal"));
            freeTurns = !"ignore".equals(options.get("freeTurns"));
        }

        /**
         * A leaf's value for the root player: a finished game's final score (each side's remaining
         * stones swept into its store), or else the basic heuristic: the stores as they stand.
         */
        int evaluate(int[] board, boolean over) {
            int mine = board[storeOf(board, ME)], theirs = board[storeOf(board, THEM)];
            if (over && sweepFinishedGames) return (mine + rowSum(board, ME)) - (theirs + rowSum(board, THEM));
            return mine - theirs;
        }

        /** The depth left after the move that led to {@code child} from a position where {@code mover} moved. */
        int childDepth(Position child, int mover, int depth) {
            boolean keepsLevel = turnUnit && child.player() == mover && !child.over();
            return keepsLevel ? depth : depth - 1;
        }

        /** The position's value for the root player, fail-soft within (alpha, beta). */
        int value(Position p, int depth, int alpha, int beta) {
            nodes++;
            if (p.over() || depth <= 0) return evaluate(p.board(), p.over());
            int v;
            if (p.player() == ME) {
                v = -INFINITY;
                for (int move : legalMoves(p.board(), ME)) {
                    Position child = sow(p.board(), ME, move, freeTurns);
                    v = Math.max(v, value(child, childDepth(child, ME, depth), alpha, beta));
                    if (v >= beta) break;
                    alpha = Math.max(alpha, v);
                }
            } else {
                v = INFINITY;
                for (int move : legalMoves(p.board(), THEM)) {
                    Position child = sow(p.board(), THEM, move, freeTurns);
                    v = Math.min(v, value(child, childDepth(child, THEM, depth), alpha, beta));
                    if (v <= alpha) break;
                    beta = Math.min(beta, v);
                }
            }
            return v;
        }

        /** The root: {the first move with the best value, that value} (the root player moves). */
        int[] bestMove(int[] board, int depth) {
            nodes++;
            List<Integer> moves = legalMoves(board, ME);
            if (depth <= 0) return new int[] {moves.get(0), evaluate(board, false)};
            int best = -1, v = -INFINITY, alpha = -INFINITY;
            for (int move : moves) {
                Position child = sow(board, ME, move, freeTurns);
                int childValue = value(child, childDepth(child, ME, depth), alpha, INFINITY);
                if (childValue > v) { // strictly better: ties keep the earlier move
                    best = move;
                    v = childValue;
                }
                alpha = Math.max(alpha, v);
            }
            return new int[] {best, v};
        }
    }
}

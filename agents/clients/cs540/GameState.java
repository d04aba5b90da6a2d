/**
 * Seed 003's (CS540) GameState, written anew by mancala-autograder from the assignment's
 * description, so that a student's Player runs unchanged. The board is 14 ints, always seen
 * from the player to move: bins 0-5 are its row (bin 0 on its left, sown towards its mancala),
 * 6 its mancala, 7-12 the other row, 13 the other mancala. A move sows counter-clockwise, skipping
 * the other mancala; ending in the mover's mancala earns another move; ending in an empty bin of
 * the mover's row captures that stone and the opposite bin's (even an empty one) into the mover's
 * mancala. The game is over when either row is empty; each side then keeps its row's stones.
 */
public final class GameState {
    public static final int GAME_NOT_OVER = Integer.MIN_VALUE;
    public static final int GAME_OVER_WIN = 1;
    public static final int GAME_OVER_TIE = 0;
    public static final int GAME_OVER_LOSE = -1;

    public int[] state = new int[14];

    public GameState() {
        this(4);
    }

    public GameState(int initialStones) {
        for (int bin = 0; bin < 14; bin++) state[bin] = bin == 6 || bin == 13 ? 0 : initialStones;
    }

    public GameState(GameState source) {
        state = source.state.clone();
    }

    /** GAME_NOT_OVER, or how the game ended for the player to move (its row and mancala against the other's). */
    public int status() {
        if (!gameOver()) return GAME_NOT_OVER;
        int mine = state[6], theirs = state[13];
        for (int bin = 0; bin < 6; bin++) {
            mine += state[bin];
            theirs += state[bin + 7];
        }
        return mine > theirs ? GAME_OVER_WIN : mine == theirs ? GAME_OVER_TIE : GAME_OVER_LOSE;
    }

    public boolean gameOver() {
        boolean mineEmpty = true, theirsEmpty = true;
        for (int bin = 0; bin < 6; bin++) {
            if (state[bin] != 0) mineEmpty = false;
            if (state[bin + 7] != 0) theirsEmpty = false;
        }
        return mineEmpty || theirsEmpty;
    }

    public int[] toArray() {
        return state.clone();
    }

    /** Row 0: bins 0-5 and the mover's mancala; row 1: bins 7-12 and the other mancala. */
    public int[][] toMatrix() {
        int[][] m = new int[2][7];
        for (int i = 0; i < 14; i++) m[i / 7][i % 7] = state[i];
        return m;
    }

    public int stoneCount(int bin) {
        return state[bin];
    }

    public int stoneCount(int row, int col) {
        return state[7 * row + col];
    }

    /** True for an empty bin, or a number that is no bin (below 0, 6, above 12); 7-12 are taken as bins. */
    public boolean illegalMove(int bin) {
        return bin < 0 || bin == 6 || bin > 12 || state[bin] == 0;
    }

    /** Plays `bin` for the player to move; true when it moves again (the board then stays as it is), else the board turns to the other player. */
    public boolean applyMove(int bin) {
        int stones = state[bin];
        state[bin] = 0;
        int at = bin;
        while (stones > 0) {
            at = (at + 1) % 14;
            if (at == 13) continue;
            state[at]++;
            stones--;
        }
        if (at == 6) return true;
        if (at < 6 && state[at] == 1) {
            int opposite = neighborOf(at);
            state[6] += state[opposite] + 1;
            state[at] = 0;
            state[opposite] = 0;
        }
        rotate();
        return false;
    }

    /** Turns the board to the other player's point of view. */
    public void rotate() {
        int[] turned = new int[14];
        for (int i = 0; i < 14; i++) turned[i] = state[(i + 7) % 14];
        state = turned;
    }

    /** The bin opposite `bin`. */
    public int neighborOf(int bin) {
        return 12 - bin;
    }

    /** The mancala of `bin`'s owner. */
    public int mancalaOf(int bin) {
        return bin < 7 ? 6 : 13;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("    ");
        for (int bin = 12; bin >= 7; bin--) b.append(String.format("%3d", state[bin]));
        b.append(String.format("%n%3d", state[13])).append(" ".repeat(19)).append(String.format("%3d%n    ", state[6]));
        for (int bin = 0; bin < 6; bin++) b.append(String.format("%3d", state[bin]));
        return b.append(String.format("%n")).toString();
    }
}

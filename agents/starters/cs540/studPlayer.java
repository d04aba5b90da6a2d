/**
 * Your CS540 Mancala player: the course's skeleton, studPlayer.java. Rename the file
 * and the class to your wisc username followed by "Player", verbatim (jdoue@wisc.edu writes
 * jdouePlayer.java holding `public class jdouePlayer`), then write the six functions below.
 *
 * Until a function is written it throws notWrittenYet(...): the check then counts the games your
 * player forfeits as "not written yet: <the function>", the next one to write.
 *
 * The framework (Player.java, GameState.java beside this file; do not change them: grading uses
 * its own copies) calls move(state) with the board seen from you: bins 0-5 are your row, bin 6 is
 * your mancala, 7-12 the opponent's row, 13 the opponent's mancala. Your search is interrupted
 * when the time per move is up, and the framework plays the value of the data member `move` last
 * set: set it after every finished depth.
 */
public class studPlayer extends Player {

    /**
     * 1. Iterative deepening: for maxDepth = 1, 2, 3, ... set move = maxAction(state, maxDepth).
     * It never needs to return: the framework interrupts it when the time is up.
     */
    public void move(GameState state) {
        throw notWrittenYet("move(GameState state): iterative deepening, setting move = maxAction(state, maxDepth) for maxDepth = 1, 2, 3, ...");
    }

    /** 2. The Max player's wrapper: the bin (0-5) leading to the largest value; ties go to the smallest bin. */
    public int maxAction(GameState state, int maxDepth) {
        throw notWrittenYet("maxAction(GameState state, int maxDepth): the bin leading to the largest value, through maxAction(child, 1, maxDepth, alpha, beta)");
    }

    /** 3. The Min player's wrapper: the bin leading to the smallest value. */
    public int minAction(GameState state, int maxDepth) {
        throw notWrittenYet("minAction(GameState state, int maxDepth): the bin leading to the smallest value");
    }

    /**
     * 4. Minimax with alpha-beta pruning at a Max node. At currentDepth == maxDepth, or when the
     * game is over, return sbe(state). GameState's copy constructor and applyMove() make a child;
     * applyMove returns true when the mover moves again (then the child is still seen from the
     * same player), else the child is turned to the other player.
     */
    public int maxAction(GameState state, int currentDepth, int maxDepth, int alpha, int beta) {
        throw notWrittenYet("maxAction(GameState state, int currentDepth, int maxDepth, int alpha, int beta): alpha-beta at a Max node");
    }

    /** 5. Minimax with alpha-beta pruning at a Min node. */
    public int minAction(GameState state, int currentDepth, int maxDepth, int alpha, int beta) {
        throw notWrittenYet("minAction(GameState state, int currentDepth, int maxDepth, int alpha, int beta): alpha-beta at a Min node");
    }

    /**
     * 6. The static board evaluation, from your point of view. The simple one: the stones in your
     * mancala minus the opponent's. A better one earns the bonus.
     */
    private int sbe(GameState state) {
        throw notWrittenYet("sbe(GameState state): the static board evaluation");
    }

    /** What a function not written yet throws; the check reads it as "not written yet", not as a crash. */
    private UnsupportedOperationException notWrittenYet(String function) {
        return new UnsupportedOperationException("not written yet: " + getClass().getSimpleName() + "." + function);
    }
}

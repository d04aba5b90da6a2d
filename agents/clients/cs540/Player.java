/**
 * Seed 003's (CS540) Player, written anew by mancala-autograder from the assignment's
 * description: a student's player extends it, sets `move` as its search finds better moves (the
 * value last set is played when time runs out), and is named by its class, <name>Player.
 */
public abstract class Player {
    /** the best move found so far: a bin 0-5 of the player to move */
    protected int move;
    private String screenName = getClass().getSimpleName();
    private int whichPlayer;

    /** Searches `context` (the player to move is on bins 0-5) and sets `move`, until it returns or time runs out. */
    public abstract void move(GameState context);

    public void initialize(String screenName, int whichPlayer) {
        this.screenName = screenName;
        this.whichPlayer = whichPlayer;
    }

    public String getDisplayName() {
        return screenName;
    }

    public int getMove() {
        return move;
    }
}

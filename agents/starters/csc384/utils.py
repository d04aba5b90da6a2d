"""
CSC384 Assignment 2: utils.py, the handout's utils_starter.py already renamed (the
handout has you rename it; the other files import `utils`). Written for this kit by
mancala-autograder in the course's names; it is not the course's file.

Fill in heuristic_basic and heuristic_advanced (search for TODO). Keep the provided code: the
names TOP and BOTTOM (use them, never 0 and 1) and get_opponent.
"""

# The two players: TOP is 0, BOTTOM is 1 (board.pockets[TOP], board.mancalas[BOTTOM], ...).
TOP = 0
BOTTOM = 1


def get_opponent(player):
    """The other player: TOP for BOTTOM, BOTTOM for TOP."""
    return BOTTOM if player == TOP else TOP


def heuristic_basic(board, player):
    """
    The basic heuristic: the stones in `player`'s Mancala store minus the stones in the opponent's
    store, as they stand (board.mancalas[player], board.mancalas[get_opponent(player)]).
    The handout's example: bottom store 8, top store 1 gives 7 for BOTTOM and -7 for TOP.
    """
    # TODO
    raise NotImplementedError("heuristic_basic")


def heuristic_advanced(board, player):
    """
    Your own heuristic, from `player`'s point of view (bigger is better for `player`). It is graded
    by playing the course's alpha-beta with it (bottom) against the course's alpha-beta with the
    basic heuristic (top): it must win at least half of 20 games.

    Ideas (the handout's): the empty pockets on each side, how they are arranged and the captures
    they allow, a different strategy in the opening, the middle and the end game. A search also
    asks it about FINISHED boards (one row empty), whose stones have not been swept into the
    stores yet: what is such a board really worth?
    """
    # TODO
    raise NotImplementedError("heuristic_advanced")

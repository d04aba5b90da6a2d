"""
CSC384's game module, mancala_game.py, written anew by mancala-autograder from the
assignment's description, so that a student's utils.py, agent_minimax.py and agent_alphabeta.py
run unchanged.

The board is two rows of pockets as the bottom player sees them: pockets[TOP] and
pockets[BOTTOM], both left to right, and mancalas = [top's store, bottom's store] (TOP = 0,
BOTTOM = 1, as utils.py defines them). Stones go counter-clockwise: the bottom row left to right
into the bottom store (on the right), the top row right to left into the top store (on the left);
the opponent's store is skipped. The course's variant: no free turns (the players alternate
whatever happens), and a last stone landing in an empty pocket of the mover's row takes the
opposite pocket's stones to the mover's store while the last stone itself stays. The game is over
when either row is empty; play_move does not sweep the stones left (heuristics and searches see
the stores as they stand).

The project counts the positions a search visits here, in play_move (the grader reads the count;
a student's code never reports it): `positions_played()` and `reset_positions_played()`.
"""

import copy

TOP = 0
BOTTOM = 1

_played = [0]


def positions_played():
    """How many positions play_move made since the last reset (the grader's node count, root excluded)."""
    return _played[0]


def reset_positions_played():
    _played[0] = 0


def _opponent(player):
    return BOTTOM if player == TOP else TOP


class Board:
    """A position: the stones in each pocket and each store. The player to move is not part of it."""

    def __init__(self, pockets=None, mancalas=None, dimension=6, stones=4):
        if pockets is None:
            pockets = [[stones] * dimension, [stones] * dimension]
        if mancalas is None:
            mancalas = [0, 0]
        self.pockets = [list(pockets[TOP]), list(pockets[BOTTOM])]
        self.mancalas = list(mancalas)
        self.dimension = len(self.pockets[TOP])

    def __eq__(self, other):
        return isinstance(other, Board) and self.pockets == other.pockets and self.mancalas == other.mancalas

    def __hash__(self):
        # As the course's: the stones only, not the player to move.
        return hash((tuple(self.pockets[TOP]), tuple(self.pockets[BOTTOM]), tuple(self.mancalas)))

    def __repr__(self):
        return "Board(%r, %r)" % (self.pockets, self.mancalas)

    def __str__(self):
        width = len(str(self.mancalas[TOP]))
        top = " ".join(str(s) for s in self.pockets[TOP])
        bottom = " ".join(str(s) for s in self.pockets[BOTTOM])
        gap = " " * (len(top) + 2)
        return "%s%s\n%s%s%s\n%s%s" % (" " * (width + 1), top, self.mancalas[TOP], gap, self.mancalas[BOTTOM], " " * (width + 1), bottom)

    def get_possible_moves(self, player):
        """The indices of player's non-empty pockets, ascending (left to right as the bottom player sees them)."""
        return [i for i, stones in enumerate(self.pockets[player]) if stones > 0]

    def is_game_over(self):
        return sum(self.pockets[TOP]) == 0 or sum(self.pockets[BOTTOM]) == 0


def get_possible_moves(board, player):
    return board.get_possible_moves(player)


def end_game(board):
    """True when either row is empty: the game is over."""
    return board.is_game_over()


def _cycle(n):
    """Every place on the board in the order stones go (counter-clockwise): ('pocket', side, i) or ('store', side)."""
    return ([("pocket", BOTTOM, i) for i in range(n)] + [("store", BOTTOM)]
            + [("pocket", TOP, i) for i in reversed(range(n))] + [("store", TOP)])


def play_move(board, player, move):
    """The board after player sows the stones of its pocket `move` (a new Board; `board` is unchanged)."""
    n = board.dimension
    if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < n or board.pockets[player][move] == 0:
        raise ValueError("play_move: pocket %r of player %r is not a legal move" % (move, player))
    stones = board.pockets[player][move]
    _played[0] += 1
    after = Board(board.pockets, board.mancalas)
    after.pockets[player][move] = 0
    places = _cycle(n)
    at = places.index(("pocket", player, move))
    last = None
    while stones > 0:
        at = (at + 1) % len(places)
        last = places[at]
        if last == ("store", _opponent(player)):
            continue
        if last[0] == "store":
            after.mancalas[player] += 1
        else:
            after.pockets[last[1]][last[2]] += 1
        stones -= 1
    if last[0] == "pocket" and last[1] == player and after.pockets[player][last[2]] == 1:
        # The course's capture: the opposite pocket's stones go to the store; the last stone stays.
        opposite = _opponent(player)
        after.mancalas[player] += after.pockets[opposite][last[2]]
        after.pockets[opposite][last[2]] = 0
    return after


def copy_board(board):
    return copy.deepcopy(board)


class MancalaGameManager:
    """A game in progress, as the course's GUI and command line keep it: the board and the player to move (BOTTOM first)."""

    def __init__(self, dimension=6, initial_board=None, stones=4):
        self.board = Board(dimension=dimension, stones=stones) if initial_board is None else Board(initial_board.pockets, initial_board.mancalas)
        self.dimension = self.board.dimension
        self.current_player = BOTTOM

    def get_possible_moves(self):
        return self.board.get_possible_moves(self.current_player)

    def is_game_ended(self):
        return self.board.is_game_over()

    def play(self, move):
        if move not in self.get_possible_moves():
            raise ValueError("pocket %r is not a legal move for %s" % (move, "TOP" if self.current_player == TOP else "BOTTOM"))
        self.board = play_move(self.board, self.current_player, move)
        self.current_player = _opponent(self.current_player)

    def get_final_scores(self):
        """The stores once each player has swept the stones left on its side."""
        return [self.board.mancalas[TOP] + sum(self.board.pockets[TOP]), self.board.mancalas[BOTTOM] + sum(self.board.pockets[BOTTOM])]

"""
CPSC 4610/5610 Homework 1: the player file, the course's Player.py, here already named
YourPlayer.py. Written for this kit by mancala-autograder in the course's names; it is not the
course's file.

Rename this file AND the class YourPlayer after your player (DavesPlayer.py holding class
DavesPlayer(Player)): the tournament creates your player as DavesPlayer.DavesPlayer(1,
DavesPlayer.Player.CUSTOM). What you write (search for TODO):
  - Problem 1: MancalaPlayer.score, a scoring function better than the provided one;
  - Problem 2: Player.alphaBetaMove, alpha-beta pruning, with the provided minimax's
    simplification (after every move the other player moves: free turns are ignored);
  - Problem 3: YourPlayer.chooseMove, the best player you can make (10 seconds a move at most,
    one thread, no files).
Keep the provided code: the constants, the provided score, minimaxMove, maxValue and minValue.
"""
from MancalaBoard import *

INFINITY = float("inf")


class Player:
    """A Mancala (or Tic-Tac-Toe) player: a person at the keyboard, or a search of some kind."""

    HUMAN = 0
    RANDOM = 1
    MINIMAX = 2
    ABPRUNE = 3
    CUSTOM = 4

    def __init__(self, playerNum, playerType, ply=0):
        """playerNum 1 or 2; playerType one of the constants above; ply: how many moves a search looks ahead."""
        self.num = playerNum
        self.opp = 2 if playerNum == 1 else 1
        self.type = playerType
        self.ply = ply

    def __repr__(self):
        return str(self.num)

    def score(self, board):
        """PROVIDED: 100 when this player has won, 0 when it has lost, 50 otherwise (too simple: see Problem 1)."""
        if board.hasWon(self.num):
            return 100.0
        if board.hasWon(self.opp):
            return 0.0
        return 50.0

    def opponent(self):
        return Player(self.opp, self.type, self.ply)

    # ---- PROVIDED: minimax. The players alternate every move (a free turn is not taken). ----

    def minimaxMove(self, board, ply):
        """(score, move): the best move for this player and its value, searching `ply` moves ahead."""
        best, move = -INFINITY, -1
        for m in board.legalMoves(self):
            child = deepcopy(board)
            child.makeMove(self, m)
            value = self.opponent().minValue(child, ply - 1, self)
            if value > best:
                best, move = value, m
        return best, move

    def maxValue(self, board, ply, turn):
        """The value for `turn` of `board`, this player (turn itself) to move."""
        if board.gameOver() or ply == 0:
            return turn.score(board)
        best = -INFINITY
        for m in board.legalMoves(self):
            child = deepcopy(board)
            child.makeMove(self, m)
            best = max(best, self.opponent().minValue(child, ply - 1, turn))
        return best

    def minValue(self, board, ply, turn):
        """The value for `turn` of `board`, this player (turn's opponent) to move."""
        if board.gameOver() or ply == 0:
            return turn.score(board)
        best = INFINITY
        for m in board.legalMoves(self):
            child = deepcopy(board)
            child.makeMove(self, m)
            best = min(best, self.opponent().maxValue(child, ply - 1, turn))
        return best

    # ---- Problem 2: alpha-beta pruning ----

    def alphaBetaMove(self, board, ply):
        """
        (score, move) as minimaxMove returns them, with alpha-beta pruning: the same value and move
        as minimaxMove (moves in legalMoves' order, the first best kept), fewer boards searched.
        You will likely want minValueAB and maxValueAB beside minValue and maxValue. Test it on
        Tic-Tac-Toe first (TicTacToe.py: a perfect game with ply 9).
        """
        # TODO
        raise NotImplementedError("alphaBetaMove")

    def chooseMove(self, board):
        """The move this player makes on `board`, by its type."""
        if self.type == self.HUMAN:
            move = int(input("Please enter your move: "))
            while not board.legalMove(self, move):
                move = int(input("%d is not valid; please enter your move: " % move))
            return move
        if self.type == self.RANDOM:
            return choice(board.legalMoves(self))
        if self.type == self.MINIMAX:
            return self.minimaxMove(board, self.ply)[1]
        if self.type == self.ABPRUNE:
            return self.alphaBetaMove(board, self.ply)[1]
        raise NotImplementedError("chooseMove of a CUSTOM player: create your player class (YourPlayer below)")


class MancalaPlayer(Player):
    """Problem 1: a Mancala player with a better scoring function."""

    def score(self, board):
        """
        How good `board` is for this player (bigger is better). Ideas: the stones in each
        Mancala, the empty cups on each side, the stones on each side, configurations that
        often lead to large gains (a cup whose stones end in your Mancala, a capture in reach).
        Then test them against each other, systematically, for your writeup.
        """
        # TODO
        raise NotImplementedError("MancalaPlayer.score")


class YourPlayer(Player):
    """
    Problem 3: your tournament player. Rename it (and this file) after your player. The tournament
    gives no ply: keep a default one (below) or decide each move how deep to search in 10 seconds.
    """

    def __init__(self, playerNum, playerType, ply=5):
        Player.__init__(self, playerNum, playerType, ply)

    def chooseMove(self, board):
        """The cup (1 to 6) your player plays on `board`."""
        # TODO: e.g. your alpha-beta with MancalaPlayer's score, then make it better.
        raise NotImplementedError("%s.chooseMove" % type(self).__name__)

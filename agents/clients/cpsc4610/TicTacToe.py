"""
CPSC 4610's TicTacToe.py, written anew by mancala-autograder from the assignment's
description, so that the course's Player class (the provided minimax, the student's alpha-beta)
plays Tic-Tac-Toe unchanged: the seed has students test their alpha-beta on it before Mancala.

TTTBoard has MancalaBoard's methods, taking a player (anything with .num) as MancalaBoard's do:
legalMove(player, cell), legalMoves(player), makeMove(player, cell), gameOver(), hasWon(playerNum),
reset() and hostGame(player1, player2). Cells are numbered 0 to 8, row by row from the top left,
as the seed numbers them ("Aborted on move 2 in minValue on XX2 OO5 678": printed, an empty cell
shows its number, the move that fills it). Player 1 plays X and moves first; player 2 plays O.
legalMoves lists the empty cells in increasing order (also once the game is won: ask gameOver()
first, as the provided minimax does).

The grader counts the moves a search makes here (board_watch.py), as on MancalaBoard.
"""
from copy import *  # noqa: F401,F403
from random import *  # noqa: F401,F403

import board_watch as _watch

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EMPTY = " "


def mark(playerNum):
    """The mark of player 1 (X) or 2 (O)."""
    return "X" if playerNum == 1 else "O"


class TTTBoard:
    def __init__(self):
        self.reset()

    def reset(self):
        self.SIZE = 3
        self.board = [EMPTY] * (self.SIZE * self.SIZE)

    def __repr__(self):
        cells = [c if c != EMPTY else str(i) for i, c in enumerate(self.board)]
        return "\n".join("".join(cells[r * 3:r * 3 + 3]) for r in range(3)) + "\n"

    def legalMove(self, player, cell):
        """Whether cell 0..8 is on the board and empty."""
        return isinstance(cell, int) and 0 <= cell < len(self.board) and self.board[cell] == EMPTY

    def legalMoves(self, player):
        """The empty cells, in increasing order."""
        return [cell for cell in range(len(self.board)) if self.board[cell] == EMPTY]

    def makeMove(self, player, cell):
        """Puts player's mark (X for player 1, O for player 2) in `cell`; False (and nothing done) when the cell is taken or off the board."""
        if not self.legalMove(player, cell):
            return False
        _watch.made[0] += 1
        trail = _watch.trail[0]
        before = tuple(self.board) if trail is not None else None
        self.board[cell] = mark(player.num)
        if trail is not None:
            trail.append((before, cell, tuple(self.board)))
        return True

    def hasWon(self, playerNum):
        """Whether player 1 (X) or 2 (O) has three in a row, a column or a diagonal."""
        m = mark(playerNum)
        return any(self.board[a] == m and self.board[b] == m and self.board[c] == m for a, b, c in LINES)

    def gameOver(self):
        """True when a player has a line or the board is full."""
        return self.hasWon(1) or self.hasWon(2) or EMPTY not in self.board

    def hostGame(self, player1, player2):
        """Plays a game from this position (no reset: set a position up with makeMove first) between
        two players (each with .num and chooseMove(board)), X moving first when the counts are equal;
        prints the board as it goes and returns the winner's number, or 0 on a tie."""
        xs, os = self.board.count("X"), self.board.count("O")
        current, waiting = (player1, player2) if xs == os else (player2, player1)
        while not self.gameOver():
            print(self)
            cell = current.chooseMove(self)
            while not self.legalMove(current, cell):
                print("%r is not a legal move for player %d" % (cell, current.num))
                cell = current.chooseMove(self)
            self.makeMove(current, cell)
            current, waiting = waiting, current
        print(self)
        return 1 if self.hasWon(1) else 2 if self.hasWon(2) else 0

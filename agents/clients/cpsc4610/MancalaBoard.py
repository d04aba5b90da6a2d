"""
CPSC 4610's MancalaBoard, written anew by mancala-autograder from the assignment's
description, so that a student's player file runs unchanged.

Player 1 owns the bottom row and the Mancala on the right, player 2 the top row and the Mancala
on the left. Each player's cups are numbered 1 to NCUPS in the order its stones are sown
(counterclockwise): P1Cups[0] is player 1's cup 1, P2Cups[0] player 2's cup 1, and scoreCups
holds the two Mancalas, player 1's first. A move sows from the cup after the chosen one, through
the mover's Mancala (never the opponent's) and on around; ending in the mover's Mancala earns
another turn; ending in an empty cup of the mover's own row captures that stone and the opposite
cup's into the mover's Mancala. The game is over when a player has no stones left in its row;
each player then keeps the stones left on its side.

The grader counts the moves a search makes here (board_watch.py): a search's node count is read
from the boards it made, never from its own word.
"""
# As the course's files do, `from MancalaBoard import *` also brings copy's and random's functions
# (deepcopy, choice, ...) and INFINITY, which a player file may use without importing them itself.
from copy import *  # noqa: F401,F403
from random import *  # noqa: F401,F403

import board_watch as _watch

NCUPS = 6
INFINITY = float("inf")


class MancalaBoard:
    def __init__(self):
        self.reset()

    def reset(self):
        self.NCUPS = NCUPS
        self.P1Cups = [4] * self.NCUPS
        self.P2Cups = [4] * self.NCUPS
        self.scoreCups = [0, 0]

    def __repr__(self):
        top = " ".join("%2d" % c for c in reversed(self.P2Cups))
        bottom = " ".join("%2d" % c for c in self.P1Cups)
        return "P2    %s\n   %2d %s %2d\n      %s    P1\n" % (top, self.scoreCups[1], " " * (3 * self.NCUPS - 1), self.scoreCups[0], bottom)

    def getPlayersCups(self, playerNum):
        """The cups of player 1 or 2, cup 1 first."""
        return self.P1Cups if playerNum == 1 else self.P2Cups

    def legalMove(self, player, cup):
        """Whether `player` (a Player, with .num) may play cup 1..NCUPS: it holds stones."""
        cups = self.getPlayersCups(player.num)
        return 0 < cup <= len(cups) and cups[cup - 1] > 0

    def legalMoves(self, player):
        """The cups `player` may play, in increasing order."""
        cups = self.getPlayersCups(player.num)
        return [cup + 1 for cup in range(len(cups)) if cups[cup] > 0]

    def makeMove(self, player, cup):
        """Plays cup 1..NCUPS for `player` (assumed legal); True when the player goes again."""
        _watch.made[0] += 1
        trail = _watch.trail[0]
        if trail is None:
            return self._sow(player, cup)
        before = self._position()
        again = self._sow(player, cup)
        trail.append((before, cup, self._position()))
        return again

    def _position(self):
        return (tuple(self.P1Cups), tuple(self.P2Cups), tuple(self.scoreCups))

    def _sow(self, player, cup):
        mine = self.getPlayersCups(player.num)
        theirs = self.getPlayersCups(2 if player.num == 1 else 1)
        # The circuit the stones travel: the mover's cups, its Mancala, the opponent's cups.
        stones = mine[cup - 1]
        mine[cup - 1] = 0
        at = cup - 1
        circuit = 2 * self.NCUPS + 1
        while stones > 0:
            at = (at + 1) % circuit
            if at < self.NCUPS:
                mine[at] += 1
            elif at == self.NCUPS:
                self.scoreCups[player.num - 1] += 1
            else:
                theirs[at - self.NCUPS - 1] += 1
            stones -= 1
        if at == self.NCUPS:
            return True
        if at < self.NCUPS and mine[at] == 1:
            opposite = self.NCUPS - 1 - at
            self.scoreCups[player.num - 1] += theirs[opposite] + 1
            theirs[opposite] = 0
            mine[at] = 0
        return False

    def gameOver(self):
        """True when a player has no stones left in its row; each player then gets the stones left on its side."""
        if sum(self.P1Cups) != 0 and sum(self.P2Cups) != 0:
            return False
        self.scoreCups[0] += sum(self.P1Cups)
        self.scoreCups[1] += sum(self.P2Cups)
        self.P1Cups = [0] * self.NCUPS
        self.P2Cups = [0] * self.NCUPS
        return True

    def hasWon(self, playerNum):
        """Whether player 1 or 2 has won: the game is over and its Mancala holds more."""
        if not self.gameOver():
            return False
        other = 2 if playerNum == 1 else 1
        return self.scoreCups[playerNum - 1] > self.scoreCups[other - 1]

    def hostGame(self, player1, player2):
        """Plays a game between two players (each with .num and chooseMove(board)), printing the board; returns the winner's number, or 0 on a tie."""
        self.reset()
        current, waiting = player1, player2
        while not self.gameOver():
            print(self)
            cup = current.chooseMove(self)
            while not self.legalMove(current, cup):
                print(cup, "is not a legal move for player", current.num)
                cup = current.chooseMove(self)
            if not self.makeMove(current, cup):
                current, waiting = waiting, current
        print(self)
        return 1 if self.hasWon(1) else 2 if self.hasWon(2) else 0

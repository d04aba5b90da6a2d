"""
What the grader sees of the boards a search makes: the project's MancalaBoard and TTTBoard
(TicTacToe.py) report every move made on them here, so that a search written in the course's API
is measured from outside, never by its own word (cpsc4610_bridge.py reads it):

  - made[0]: how many moves makeMove made since the last reset(): the positions the search
    visited besides the root (a search makes each child it visits with makeMove on a copy);
  - trail[0]: when recording, (position before, move, position after) of each of those moves, in
    the order they were made: the search's visiting order, from which the bridge derives the path
    of every position visited (PROTOCOL.md, `visited`).

A student's code never needs this module.
"""

made = [0]
trail = [None]


def reset(record=False):
    """Counts from zero; with `record`, also keeps the trail of the moves made."""
    made[0] = 0
    trail[0] = [] if record else None


def count():
    return made[0]


def moves():
    """The moves recorded since reset(record=True): (position before, move, position after) each."""
    return trail[0] or []

"""CSCI-561 Mancala homework: your program. The course runs it as

    python3 mancala3.py -i input.txt      (mancala3.py: Python 3; mancala.py: Python 2.7)

reads the input file (task, player, cut-off depth, the board) and writes next_state.txt and,
for MiniMax and Alpha-Beta, traverse_log.txt in the folder it runs in. This starter reads the
input and writes the files in the course's formats; the rules and the searches are yours to
write (the functions that raise NotWrittenYet). Until they are written, it writes files that say
so, and the check shows "not written yet: <function>" where it expected your answer.

The conventions the course's official cases settle (the README beside this file lists them all):
you are the max player; pits are tried left to right (B2, B3, ... for player 1, A2, A3, ... for
player 2), ties go to the first; a move ending in your own mancala is a free turn and keeps the
depth (still expanded at the cut-off); a position is worth your mancala minus the opponent's.
The code runs on Python 2.7 and 3, so the same file may be handed in as mancala.py.
"""
from __future__ import print_function

import sys

INFINITY = float("inf")


class NotWrittenYet(Exception):
    """What a function of this starter raises until you write it."""


class Board(object):
    """The input's board: top is player 2's row, bottom player 1's, each left to right as the figure shows them."""

    def __init__(self, top, bottom, top_store, bottom_store):
        self.top, self.bottom = top, bottom
        self.top_store, self.bottom_store = top_store, bottom_store

    def lines(self):
        """next_state.txt's four lines."""
        return [" ".join(str(x) for x in self.top), " ".join(str(x) for x in self.bottom), str(self.top_store), str(self.bottom_store)]


def input_path(argv):
    """The course runs `python mancala.py -i input.txt`: the path after -i; without it, input.txt."""
    if "-i" in argv[1:-1]:
        return argv[argv.index("-i") + 1]
    return "input.txt"


def read_input(path):
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip() != ""]
    task, player, depth = int(lines[0]), int(lines[1]), int(lines[2])
    top = [int(x) for x in lines[3].split()]
    bottom = [int(x) for x in lines[4].split()]
    return task, player, depth, Board(top, bottom, int(lines[5]), int(lines[6]))


def value_text(v):
    """A value as the traverse log prints it: Infinity, -Infinity, or a whole number."""
    if v == INFINITY:
        return "Infinity"
    if v == -INFINITY:
        return "-Infinity"
    return str(int(v))


def log_line(log, name, depth, value, alpha=None, beta=None):
    """Appends one line of the traverse log: Node,Depth,Value (Alpha-Beta also: ,Alpha,Beta)."""
    fields = [name, str(depth), value_text(value)]
    if alpha is not None:
        fields += [value_text(alpha), value_text(beta)]
    log.append(",".join(fields))


def play(board, player, pit):
    """Sows pit `pit` (0 = the leftmost) of `player` (1 or 2): (the new Board, whether `player` moves again).

    Counterclockwise, into your own mancala but not the opponent's; the last stone in an empty pit
    of your own row captures it and the opposite pit (even an empty one); when either row is empty
    the game is over and each row goes to its owner's mancala."""
    raise NotWrittenYet("play(board, player, pit): sowing a pit, captures, free turns and the end of the game")


def greedy(board, player):
    """Task 1: the board after the best move at cut-off depth 1 (and your free turns after it)."""
    raise NotWrittenYet("greedy(board, player): task 1, the next state after the best move at depth 1")


def minimax(board, player, depth, log):
    """Task 2: the board after MiniMax's move; appends the traverse log's lines to `log` with log_line."""
    raise NotWrittenYet("minimax(board, player, depth, log): task 2, the next state and the traverse log")


def alphabeta(board, player, depth, log):
    """Task 3: as minimax, pruning; each log line also has alpha and beta."""
    raise NotWrittenYet("alphabeta(board, player, depth, log): task 3, the next state and the traverse log with alpha and beta")


HEADERS = {2: "Node,Depth,Value", 3: "Node,Depth,Value,Alpha,Beta"}


def write_lines(name, lines):
    with open(name, "w") as f:
        f.write("".join(line + "\n" for line in lines))


def main(argv):
    task, player, depth, board = read_input(input_path(argv))
    log = [HEADERS[task]] if task in HEADERS else None
    try:
        if task == 2:
            after = minimax(board, player, depth, log)
        elif task == 3:
            after = alphabeta(board, player, depth, log)
        else:
            # Task 4 (the competition) is not graded: greedy plays it.
            after = greedy(board, player)
    except NotWrittenYet as e:
        # The files say what is missing, so the check shows it where it expected your answer.
        what = "not written yet: %s" % e
        print(what, file=sys.stderr)
        write_lines("next_state.txt", [what])
        if log is not None:
            write_lines("traverse_log.txt", [HEADERS[task], what])
        return
    write_lines("next_state.txt", after.lines())
    if log is not None:
        write_lines("traverse_log.txt", log)


if __name__ == "__main__":
    main(sys.argv)

"""
Runs a CPSC 4610 student's file over the grader's stdio protocol (agents/clients/PROTOCOL.md), so
that what the course asks for runs unchanged: YourPlayer.py, the renamed Player.py, holding the
course's Player class (HUMAN, RANDOM, MINIMAX, ABPRUNE, CUSTOM; Player(playerNum, playerType,
ply=0) with num, opp, type, ply; score, minimaxMove, alphaBetaMove, chooseMove ...), the student's
`class MancalaPlayer(Player)` with the improved score, and the custom player `class NAME(Player)`
named after the file. It imports the course's MancalaBoard: the project's own, beside this file
(it takes the place of any copy the folder holds), as is TicTacToe.py's TTTBoard.

What each request becomes:
  - role `alphabeta` (Problem 2): Player(num, Player.ABPRUNE, ply).alphaBetaMove(board, ply), which
    returns (score, move) as the provided minimaxMove does; role `full` (the optional abPruneFull)
    and `minimax` the same with abPruneFull and minimaxMove. While it runs, Player.score is the
    heuristic the case names (the course's provided 100 / 50 / 0 score in the cpsc4610 suites,
    valued as the case's `terminal` says), so the grade is the search's alone. The node count is
    1 + the moves made on the project's boards during the call (board_watch.py), never the
    search's own word; when the grader wants `visited` (a trace case), the path of every position
    visited, in order, derived from the boards the search made (PROTOCOL.md);
  - any request on Tic-Tac-Toe: the same alpha-beta, on the project's TTTBoard (ply 9, the seed's
    perfect player, unless the case sets a depth);
  - an evaluate request: MancalaPlayer(num, Player.ABPRUNE).score(board); an evaluate-many
    request, the same for each of its positions (the scoring function's playoff: the grader runs
    the reference alpha-beta itself and asks this program for values only, so no search of the
    project's is in this process);
  - any other move request (role `agent`, a match's): the custom player, created as the course's
    tournament does, NAME.NAME(num, NAME.Player.CUSTOM), plays the cup its chooseMove returns.
A file without MancalaPlayer scores with its NAME class (the seed also has students rename the
scoring subclass after their player). The student's prints go to stderr (stdout carries the
protocol). Whatever goes wrong ends this program with a message on stderr naming the file, the
method and what it returned or raised; the grader shows it for that request.

Usage: python3 cpsc4610_bridge.py NAME
Written to run on Python 2.7 as well (an instructor may point --python at one).
"""
import inspect
import json
import numbers
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The project's MancalaBoard and TicTacToe first, then the shared bridge helpers, then the submission's folder.
sys.path[:0] = [HERE, os.path.join(HERE, os.pardir, "python"), os.getcwd()]
import board_watch  # noqa: E402
from MancalaBoard import MancalaBoard  # noqa: E402
from TicTacToe import TTTBoard  # noqa: E402
import bridge_support  # noqa: E402
from bridge_support import describe_exception, import_student_module  # noqa: E402

# The provided player's depth, for a Mancala search asked without one; Tic-Tac-Toe's whole game.
MANCALA_PLY = 5
TICTACTOE_PLY = 9
# What a role's search method is, and the player type it is created with.
SEARCHES = {"alphabeta": ("alphaBetaMove", "ABPRUNE"), "full": ("abPruneFull", "ABPRUNE"), "minimax": ("minimaxMove", "MINIMAX")}
# The student's prints pass to stderr up to this many bytes (the grader keeps a bounded log anyway).
PRINT_BUDGET = 256 * 1024
# What the grader reads as a starter's function not written yet (framework/contracts/not-implemented.ts).
NOT_WRITTEN = "failed: NotImplementedYet: "
# What the grader reads as an answer that is no move, what came back before a tab (NOT_A_MOVE_MARK, framework/sandbox/stdio-agents/wire.ts).
NOT_A_MOVE = "failed: NotAMove: "


# The grader quotes the end of stderr (600 characters): a failure is kept shorter than that.
FAILURE_CHARS = 560
CARETS = re.compile(r"^\s*[\^~]+\s*$")


def fail(message):
    """Ends the program with `message` (bridge_support.fail), a traceback in it made to fit the
    grader's quote: no caret lines, and the earliest frames left out until it fits (the first
    line, which says what went wrong, and the last frame stay)."""
    lines = [line for line in message.split("\n") if not CARETS.match(line)]
    while len("\n".join(lines)) > FAILURE_CHARS and len(lines) > 3:
        # A frame is its "File ..." line and the line of code under it.
        cut = 3 if lines[1].lstrip().startswith("File ") and len(lines) > 4 else 2
        del lines[1:cut]
    bridge_support.fail("\n".join(lines))


class StudentOutput(object):
    """Where the student's prints go: stderr, until the budget is spent; then they are counted, not written."""

    def __init__(self, stream):
        self.stream = stream
        self.left = PRINT_BUDGET
        self.dropped = 0

    def write(self, text):
        if self.left > 0:
            self.stream.write(text[:self.left])
            self.left -= len(text)
            if self.left <= 0:
                self.stream.write("\n[the bridge writes no more of the player's prints]\n")
        else:
            self.dropped += len(text)

    def flush(self):
        self.stream.flush()

    def __getattr__(self, name):
        # encoding, isatty(), fileno() ...: stderr's
        return getattr(self.stream, name)


# stdout carries the protocol; main() hands the student's prints another stream.
PROTOCOL = sys.stdout


def send(message):
    PROTOCOL.write(json.dumps(message) + "\n")
    PROTOCOL.flush()


def other(num):
    return 2 if num == 1 else 1


def is_number(v):
    return isinstance(v, numbers.Number) and not isinstance(v, (bool, complex)) and v == v


def plain_number(v):
    """A number JSON can carry (a Decimal, a numpy number ... as a float)."""
    return int(v) if isinstance(v, numbers.Integral) else float(v)


# ---- the student's file ------------------------------------------------------------------------


class Submission(object):
    def __init__(self, name):
        self.name = name
        self.file = name + ".py"
        self.module = import_student_module(name)
        base = getattr(self.module, "Player", None)
        if not inspect.isclass(base):
            fail("%s has no class Player: YourPlayer.py is the course's Player.py renamed, holding the Player class, MancalaPlayer and your player" % self.file)
        self.Player = base
        custom = getattr(self.module, name, None) if name != "Player" else None
        self.custom = custom if inspect.isclass(custom) and issubclass(custom, base) and custom is not base else None
        scorer = getattr(self.module, "MancalaPlayer", None)
        self.scorer = scorer if inspect.isclass(scorer) and issubclass(scorer, base) else self.custom
        self.players = {}

    def constant(self, name):
        value = getattr(self.Player, name, None)
        if value is None:
            fail("%s: Player has no constant %s (the course's Player defines HUMAN, RANDOM, MINIMAX, ABPRUNE and CUSTOM)" % (self.file, name))
        return value

    def create(self, cls, *args):
        try:
            return cls(*args)
        except Exception:
            fail("%s: creating %s%r raised %s" % (self.file, cls.__name__, args, describe_exception()))

    def call(self, what, f, *args):
        try:
            return f(*args)
        except NotImplementedError:
            # The starter's unfinished parts (the kit's YourPlayer.py): a failed case naming the method, not a crash.
            fail("%s: %s %s%s is not written yet (it raised NotImplementedError)" % (self.file, what, NOT_WRITTEN, what))
        except Exception:
            fail("%s: %s raised %s" % (self.file, what, describe_exception()))

    def tournament_player(self, num):
        """NAME.NAME(num, NAME.Player.CUSTOM), as the course's tournament creates it, kept from move to move."""
        if self.custom is None:
            if self.name == "Player":
                fail("Player.py is the course's file as given: rename it and your player class after your player (DavesPlayer.py holding class DavesPlayer(Player)), as the tournament asks")
            fail("%s must hold class %s(Player), your custom player: the tournament creates %s.%s(1, %s.Player.CUSTOM)" % (self.file, self.name, self.name, self.name, self.name))
        if num not in self.players:
            self.players[num] = self.create(self.custom, num, self.constant("CUSTOM"))
        return self.players[num]

    def scoring_player(self, num):
        if self.scorer is None:
            fail("%s has no class MancalaPlayer(Player): Problem 1's improved score goes in it" % self.file)
        return self.create(self.scorer, num, self.constant("ABPRUNE"))

    def score(self, player, board):
        """The student's score of `board` for `player` (on a copy: the score may change the board it is given)."""
        name = "%s.score" % player.__class__.__name__
        value = self.call(name, player.score, copy_board(board))
        if not is_number(value):
            fail("%s: %s returned %r: expected a number (bigger is better for the player)" % (self.file, name, value))
        return plain_number(value)


# ---- boards ---------------------------------------------------------------------------------------


def mancala_board(request):
    """The request's position as a MancalaBoard: player 1 on the bottom row."""
    board = MancalaBoard()
    num = 1 if request["side"] == "bottom" else 2
    mine, theirs = list(request["mine"]), list(request["theirs"])
    board.NCUPS = len(mine)
    board.P1Cups, board.P2Cups = (mine, theirs) if num == 1 else (theirs, mine)
    board.scoreCups = [request["myStore"], request["theirStore"]] if num == 1 else [request["theirStore"], request["myStore"]]
    return board, num


def tictactoe_board(request):
    board = TTTBoard()
    board.board = [c if c in ("X", "O") else " " for c in request["cells"]]
    return board, 1 if request["side"] == "X" else 2


def copy_board(board):
    if isinstance(board, TTTBoard):
        b = TTTBoard()
        b.board = list(board.board)
        return b
    b = MancalaBoard()
    b.NCUPS = board.NCUPS
    b.P1Cups, b.P2Cups, b.scoreCups = list(board.P1Cups), list(board.P2Cups), list(board.scoreCups)
    return b


def position(board):
    return tuple(board.board) if isinstance(board, TTTBoard) else (tuple(board.P1Cups), tuple(board.P2Cups), tuple(board.scoreCups))


def legal_moves(board, num):
    """The moves of player `num` in the course's numbering (cups 1..NCUPS, cells 0..8), none once the game is over."""
    if is_over(board):
        return []
    if isinstance(board, TTTBoard):
        return [cell for cell in range(9) if board.board[cell] == " "]
    cups = board.P1Cups if num == 1 else board.P2Cups
    return [cup + 1 for cup in range(len(cups)) if cups[cup] > 0]


def protocol_move(board, move):
    """Protocol moves: a Mancala pit's index in its owner's sowing order (cup - 1), a cell as it is."""
    return move if isinstance(board, TTTBoard) else move - 1


def is_over(board):
    """Whether the game is over, without the sweep MancalaBoard.gameOver() does."""
    if isinstance(board, TTTBoard):
        return board.gameOver()
    return sum(board.P1Cups) == 0 or sum(board.P2Cups) == 0


def final_score(board, num):
    """The game's score for `num` once over: Mancala, its Mancala minus the other's after each row
    goes to its owner (the store difference after the sweep); Tic-Tac-Toe, 1 won, -1 lost, 0 drawn."""
    if isinstance(board, TTTBoard):
        return 1 if board.hasWon(num) else -1 if board.hasWon(other(num)) else 0
    mine = board.scoreCups[num - 1] + sum(board.P1Cups if num == 1 else board.P2Cups)
    theirs = board.scoreCups[other(num) - 1] + sum(board.P2Cups if num == 1 else board.P1Cups)
    return mine - theirs


def given_heuristic(name, board, num):
    """The project's heuristics a case may hand a search (framework/heuristics/), for player `num`."""
    if name == "basic":
        # Mancala: the stores as they stand; Tic-Tac-Toe: the game's score, 0 while in play.
        if isinstance(board, TTTBoard):
            return final_score(board, num) if board.gameOver() else 0
        return board.scoreCups[num - 1] - board.scoreCups[other(num) - 1]
    if name == "cpsc4610-provided":
        # The course's provided Player.score: 100 won, 0 lost, 50 otherwise.
        if not is_over(board):
            return 50.0
        d = final_score(board, num)
        return 100.0 if d > 0 else 0.0 if d < 0 else 50.0
    fail("the case hands the search the heuristic %r, which this bridge does not know (basic, cpsc4610-provided)" % name)


def case_score(heuristic, terminal):
    """Player.score while a graded search runs: the case's heuristic, a finished game valued as `terminal` says."""

    def score(self, board):
        if terminal == "score" and is_over(board):
            return final_score(board, self.num)
        return given_heuristic(heuristic, board, self.num)

    return score


# ---- the student's searches ---------------------------------------------------------------------


def visited_paths(root, root_position):
    """The path (protocol moves from the root) of every position the search made, in the order it made them.

    A position's path is its parent's plus the move: the parent is the latest position made (or the
    root) equal to the board the move was made on. In a depth-first search that is the node being
    expanded: a position never recurs below itself (stones only move on; marks are only added).
    """
    paths = {root_position: []}
    out = []
    for before, move, after in board_watch.moves():
        parent = paths.get(before)
        path = (parent if parent is not None else []) + [protocol_move(root, move)]
        paths[after] = path
        out.append(path)
    return out


def check_search_result(submission, what, result, board, legal):
    unit = "cells" if isinstance(board, TTTBoard) else "cups"
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        fail("%s: %s returned %r: expected (score, move), as the provided minimaxMove returns" % (submission.file, what, result))
    value, move = result
    if isinstance(move, bool) or not isinstance(move, numbers.Integral) or move not in legal:
        swapped = " (is it (move, score)? minimaxMove returns (score, move))" if is_number(value) and value in legal else ""
        fail("%s: %s returned (%r, %r): the move %r is not one of the legal %s %r%s" % (submission.file, what, value, move, move, unit, legal, swapped))
    if not is_number(value):
        fail("%s: %s returned (%r, %r): the score %r is not a number" % (submission.file, what, value, move, value))
    return int(move), plain_number(value)


def course_search(submission, request, role, board, num):
    """The student's search the role names, on `board` for player `num`, measured on the project's boards."""
    method, kind = SEARCHES[role]
    # In the Player class, as the course has it; a search written in a subclass is taken from there.
    classes = []
    for c in (submission.Player, submission.scorer, submission.custom):
        if c is not None and c not in classes:
            classes.append(c)
    owner = next((c for c in classes if getattr(c, method, None) is not None), None)
    if owner is None:
        needs = {"alphaBetaMove": "Problem 2's alpha-beta", "abPruneFull": "the optional abPruneFull (free turns honoured)", "minimaxMove": "the provided minimax"}[method]
        fail("%s: Player has no method %s(board, ply): %s goes in the Player class" % (submission.file, method, needs))
    depth = request.get("depth")
    ply = depth if isinstance(depth, int) and depth >= 0 else TICTACTOE_PLY if isinstance(board, TTTBoard) else MANCALA_PLY
    options = request.get("options") or {}
    heuristic = request.get("heuristic") or options.get("heuristic") or "basic"
    player = submission.create(owner, num, submission.constant(kind), ply)
    what = "%s.%s(board, %d)" % (owner.__name__, method, ply)
    # Every player class scores with the case's heuristic during the call (the search may make
    # players of any of them); each class's own score is put back after.
    given = [(c, c.__dict__.get("score")) for c in classes]
    for c in classes:
        c.score = case_score(heuristic, options.get("terminal") or "score")
    # Taken before the search: a search may play on the board it is given.
    root_position, legal = position(board), legal_moves(board, num)
    board_watch.reset(record="visited" in (request.get("want") or []))
    try:
        result = submission.call(what, getattr(player, method), board, ply)
    finally:
        for c, score in given:
            if score is None:
                del c.score
            else:
                c.score = score
    made = board_watch.count()
    move, value = check_search_result(submission, what, result, board, legal)
    answer = {"move": protocol_move(board, move), "value": value, "nodes": 1 + made}
    if board_watch.trail[0] is not None:
        answer["visited"] = visited_paths(board, root_position)
    board_watch.reset()
    return answer


# ---- requests -------------------------------------------------------------------------------------


def answer_move(submission, request, tictactoe):
    board, num = tictactoe_board(request) if tictactoe else mancala_board(request)
    role = request.get("role")
    options = request.get("options") or {}
    heuristic = request.get("heuristic") or options.get("heuristic") or ""
    if tictactoe:
        answer = course_search(submission, request, role if role in SEARCHES else "alphabeta", board, num)
    elif heuristic.startswith("role:"):
        fail("the scoring function is asked for values (evaluate, evaluate-many), never for a move: the grader runs the playoff's search")
    elif role in SEARCHES:
        answer = course_search(submission, request, role, board, num)
    else:
        player = submission.tournament_player(num)
        cup = submission.call("%s.chooseMove" % submission.name, player.chooseMove, board)
        if isinstance(cup, bool) or not isinstance(cup, numbers.Integral):
            # No move at all (None, a string, a tuple): an illegal move naming what came back, not a crash.
            what = repr(cup)[:80]
            fail("%s%s\t%s.chooseMove returned %s: expected a cup number, 1 to %d" % (NOT_A_MOVE, what, submission.name, what, board.NCUPS))
        answer = {"move": int(cup) - 1}
    answer["id"] = request["id"]
    return answer


def answer_evaluate(submission, request, tictactoe):
    board, num = tictactoe_board(request) if tictactoe else mancala_board(request)
    return {"id": request["id"], "value": submission.score(submission.scoring_player(num), board)}


def answer_evaluate_many(submission, request):
    """The scoring function's value of each Mancala position (a playoff's leaves) for the request's side, by one scoring player."""
    num = 1 if request["side"] == "bottom" else 2
    scorer = submission.scoring_player(num)
    values = []
    for b in request["positions"]:
        board = MancalaBoard()
        board.NCUPS = len(b["bottom"])
        # Player 1 sits on the bottom row; player 2's cups, in its sowing order, are the top row reversed.
        board.P1Cups, board.P2Cups = list(b["bottom"]), list(reversed(b["top"]))
        board.scoreCups = [b["stores"]["bottom"], b["stores"]["top"]]
        values.append(submission.score(scorer, board))
    return {"id": request["id"], "values": values}


def main():
    sys.stdout = StudentOutput(sys.stderr)
    submission = Submission(sys.argv[1])
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != 1:
        fail("this bridge speaks protocol 1, got %r" % hello.get("protocol"))
    game = hello.get("game") or {}
    tictactoe = game.get("kind") == "tictactoe" or game.get("name") == "tictactoe"
    send({"type": "ready", "name": submission.name})
    for line in iter(sys.stdin.readline, ""):
        request = json.loads(line)
        kind = request.get("type")
        if kind == "move":
            send(answer_move(submission, request, tictactoe))
        elif kind == "evaluate":
            send(answer_evaluate(submission, request, tictactoe))
        elif kind == "evaluate-many":
            send(answer_evaluate_many(submission, request))


if __name__ == "__main__":
    main()

"""
Runs a CSC384 student's files over the grader's stdio protocol (agents/clients/PROTOCOL.md), so
that what the course asks for runs unchanged: utils.py (TOP, BOTTOM, get_opponent,
heuristic_basic, heuristic_advanced), agent_minimax.py and agent_alphabeta.py, against the
project's own mancala_game.py (beside this file; it takes the place of any copy the folder holds).

What each request becomes:
  - a move request for role `minimax` or `alphabeta` (a graded search case): the course's function
    for the case's version, called at the root for the player to move:
      depth -1 or none, no caching   -> <search>_max_basic
      depth >= 0, no caching         -> <search>_max_limit
      caching                        -> <search>_max_limit_caching (depth -1 when none)
    with heuristic_basic (or heuristic_advanced when the task names it); the answer is its
    (best_move, value), and the node count is 1 + the positions mancala_game.play_move made,
    counted by the project's module, not by the student's code;
  - a move request of a match (role `agent`): agent_alphabeta (or agent_minimax when it is the
    only one) with a depth limit (6 when the match gives none) and caching as asked: run as the
    course's manager runs it (CourseManager) when the file has the course's run_ai(), else its
    _max_limit function called here;
  - an evaluate request (role heuristic_basic or heuristic_advanced): utils' function of that name;
    an evaluate-many request, the same for each of its positions (a heuristic's playoff: the
    grader runs the reference alpha-beta itself and asks this program for values only, so no
    search of the project's is in this process).
A student's file is imported when a request first needs it, so a broken agent_minimax.py fails the
minimax cases only. Whatever goes wrong ends this program with a message on stderr naming the file,
the function and what it returned or raised; the grader shows it for that request.

Usage: python3 csc384_bridge.py
Written to run on Python 2.7 as well (an instructor may point --python at one).
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The project's mancala_game first, then the shared bridge helpers, then the submission's folder.
sys.path[:0] = [HERE, os.path.join(HERE, os.pardir, "python"), os.getcwd()]
import mancala_game  # noqa: E402
from mancala_game import Board, TOP, BOTTOM  # noqa: E402
from bridge_support import describe_exception, fail, import_student_module  # noqa: E402

INF = float("inf")
SEARCHES = {"minimax": "agent_minimax", "alphabeta": "agent_alphabeta"}
HEURISTICS = ("heuristic_basic", "heuristic_advanced")
# A match asks for a move with no depth when none was given: a search to the end is hopeless from the start.
MATCH_LIMIT = 6
NOT_WRITTEN = "failed: NotImplementedYet: "

_modules = {}


def student(name):
    if name not in _modules:
        if not os.path.exists(name + ".py"):
            fail("%s.py is missing: a CSC384 submission is utils.py, agent_minimax.py and agent_alphabeta.py" % name)
        _modules[name] = import_student_module(name)
    return _modules[name]


def function(module_name, name):
    f = getattr(student(module_name), name, None)
    if not callable(f):
        fail("%s.py has no function %s: the course's files define it (keep the names the starter gives)" % (module_name, name))
    return f


def call(file, name, f, *args):
    try:
        return f(*args)
    except NotImplementedError:
        fail("%s.py: %s %s%s is not written yet (it raised NotImplementedError)" % (file, name, NOT_WRITTEN, name))
    except Exception:
        fail("%s.py: %s raised %s" % (file, name, describe_exception()))


def board_of(request):
    return board_from(request["board"])


def board_from(b):
    """A Board from the protocol's JSON board form."""
    return Board([b["top"], b["bottom"]], [b["stores"]["top"], b["stores"]["bottom"]])


def side_of(request):
    return BOTTOM if request["side"] == "bottom" else TOP


def protocol_move(board, player, pocket):
    """The course numbers pockets left to right as the bottom player sees them; protocol moves follow the mover's sowing order."""
    return pocket if player == BOTTOM else board.dimension - 1 - pocket


def check_best(file, name, result, board, player):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        fail("%s.py: %s returned %r: expected (best_move, value)" % (file, name, result))
    move, value = result
    legal = board.get_possible_moves(player)
    if isinstance(move, bool) or not isinstance(move, int) or move not in legal:
        fail("%s.py: %s returned the move %r: expected one of the pockets %r (indices of the player's non-empty pockets)" % (file, name, move, legal))
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        fail("%s.py: %s returned the value %r: expected a number" % (file, name, value))
    return move, value


def heuristic_named(name):
    if name not in HEURISTICS:
        fail("no heuristic %r: utils.py has heuristic_basic and heuristic_advanced" % name)
    return function("utils", name)


def course_search(search, request, player, board):
    """The student's own search, the version the case names, at the root."""
    options = request.get("options") or {}
    depth = request.get("depth")
    if depth is None and request.get("role") not in SEARCHES:
        depth = MATCH_LIMIT
    limit = depth if isinstance(depth, int) and depth >= 0 else -1
    heuristic = heuristic_named("heuristic_advanced" if request.get("heuristic") == "advanced" else "heuristic_basic")
    if options.get("caching"):
        name, extra = "%s_max_limit_caching" % search, (limit, {})
    elif limit >= 0:
        name, extra = "%s_max_limit" % search, (limit,)
    else:
        name, extra = "%s_max_basic" % search, ()
    file = SEARCHES[search]
    f = function(file, name)
    window = (-INF, INF) if search == "alphabeta" else ()
    mancala_game.reset_positions_played()
    result = call(file, name, f, board, player, *(window + (heuristic,) + extra))
    move, value = check_best(file, name, result, board, player)
    return move, value, 1 + mancala_game.positions_played()


def answer_move(request):
    board, player = board_of(request), side_of(request)
    role = request.get("role")
    if role in HEURISTICS:
        fail("%s is a heuristic: the grader asks it for values (evaluate, evaluate-many), never for a move" % role)
    if role in SEARCHES:
        move, value, nodes = course_search(role, request, player, board)
    else:
        search = "alphabeta" if os.path.exists("agent_alphabeta.py") else "minimax"
        file = SEARCHES[search] + ".py"
        if defines_run_ai(file):
            return {"id": request["id"], "move": protocol_move(board, player, MANAGER.move(file, request, player, board))}
        move, value, nodes = course_search(search, request, player, board)
    return {"id": request["id"], "move": protocol_move(board, player, move), "value": value, "nodes": nodes}


def defines_run_ai(file):
    with open(file) as f:
        return re.search(r"^def run_ai\(", f.read(), re.M) is not None


class CourseManager(object):
    """
    Plays a match's moves the way the course's own manager (its GUI and command line) does: the
    student's agent file runs as a program of its own, its provided run_ai() reading, first,
    `player,limit,caching,heuristic` (TOP 0 / BOTTOM 1; limit -1 for none; 0/1; 0 basic, 1
    advanced), then each turn `SCORE top bottom`, the pockets and the mancalas as Python literals,
    and printing its move, a pocket index. A line that is not a number (the name run_ai prints
    first) is passed over. The program lives while the settings stay the same.
    """

    def __init__(self):
        self.proc, self.settings = None, None

    def move(self, file, request, player, board):
        options = request.get("options") or {}
        depth = request.get("depth")
        limit = depth if isinstance(depth, int) and depth >= 0 else MATCH_LIMIT
        settings = "%d,%d,%d,%d" % (player, limit, 1 if options.get("caching") else 0, 1 if request.get("heuristic") == "advanced" else 0)
        if self.proc is None or self.proc.poll() is not None or settings != self.settings:
            self.start(file, settings)
        turn = "SCORE %d %d\n%r\n%r\n" % (board.mancalas[TOP], board.mancalas[BOTTOM], board.pockets, board.mancalas)
        try:
            self.proc.stdin.write(turn)
            self.proc.stdin.flush()
        except (IOError, OSError):
            fail("%s (run as the course's manager runs it) ended before reading its turn" % file)
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                fail("%s (run as the course's manager runs it) ended without printing a move (exit code %s)" % (file, self.proc.wait()))
            word = line.strip()
            if re.match(r"^-?\d+$", word):
                pocket = int(word)
                if pocket not in board.get_possible_moves(player):
                    fail("%s printed the move %d: expected one of the pockets %r" % (file, pocket, board.get_possible_moves(player)))
                return pocket

    def start(self, file, settings):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([HERE, os.getcwd()])
        # Its stderr is this program's: the grader keeps it as the log.
        self.proc = subprocess.Popen([sys.executable, "-u", file], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, universal_newlines=True)
        self.proc.stdin.write(settings + "\n")
        self.proc.stdin.flush()
        self.settings = settings


MANAGER = CourseManager()


def heuristic_value(name, f, board, player):
    value = call("utils", name, f, board, player)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        fail("utils.py: %s returned %r: expected a number" % (name, value))
    return value


def answer_evaluate(request):
    name = request.get("role")
    return {"id": request["id"], "value": heuristic_value(name, heuristic_named(name), board_of(request), side_of(request))}


def answer_evaluate_many(request):
    name = request.get("role")
    f, player = heuristic_named(name), side_of(request)
    return {"id": request["id"], "values": [heuristic_value(name, f, board_from(b), player) for b in request["positions"]]}


# stdout is the protocol's channel: what the student's code prints (debugging output) goes to
# stderr, the grader's log, instead of breaking the protocol.
PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr


def send(message):
    PROTOCOL_OUT.write(json.dumps(message) + "\n")
    PROTOCOL_OUT.flush()


def main():
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != 1:
        fail("this bridge speaks protocol 1, got %r" % hello.get("protocol"))
    send({"type": "ready", "name": "csc384 submission"})
    for line in iter(sys.stdin.readline, ""):
        request = json.loads(line)
        kind = request.get("type")
        if kind == "move":
            send(answer_move(request))
        elif kind == "evaluate":
            send(answer_evaluate(request))
        elif kind == "evaluate-many":
            send(answer_evaluate_many(request))


if __name__ == "__main__":
    main()

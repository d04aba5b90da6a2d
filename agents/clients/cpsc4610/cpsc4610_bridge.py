"""
Runs a CPSC 4610 student's tournament player over the grader's stdio protocol
(agents/clients/PROTOCOL.md), so that the file the course asks for runs unchanged: NAME.py holds
the course's Player class and the student's `class NAME(Player)`, imports the course's
MancalaBoard (the project's own, beside this file, which takes the place of any copy the folder
holds), and is created as the course's tournament creates it, NAME.NAME(num, NAME.Player.CUSTOM).
Each move request becomes a MancalaBoard (player 1 on the bottom row); the answer is the cup
chooseMove returns, 1 to 6, sent as the move (cup - 1).

Usage: python3 cpsc4610_bridge.py NAME
"""
import importlib
import json
import os
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
# The project's MancalaBoard first, then the submission's folder (the working directory).
sys.path[:0] = [HERE, os.getcwd()]
from MancalaBoard import MancalaBoard  # noqa: E402


def fail(message):
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    sys.exit(1)


def looks_like_python2(source):
    """The line of a Python 2 print statement or `except X, e:`, or None."""
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        if re.match(r"\s*print\s+[^\s(=]", code) or re.match(r"\s*except\s+[\w.]+\s*,\s*\w+\s*:", code):
            return number
    return None


def load(name):
    try:
        return importlib.import_module(name)
    except SyntaxError as e:
        with open(name + ".py", encoding="utf-8", errors="replace") as f:
            line = looks_like_python2(f.read())
        if line is not None:
            fail("%s.py looks like Python 2 (line %d), which cannot run here: the course's players run on Python 3 "
                 "(print(...) is a function; except X as e). Your instructor can give a Python 2 interpreter with --python PATH." % (name, line))
        fail("%s.py has a syntax error: %s (line %s)" % (name, e.msg, e.lineno))
    except Exception:
        fail("importing %s.py failed:\n%s" % (name, traceback.format_exc()))


def main():
    name = sys.argv[1]
    module = load(name)
    cls = getattr(module, name, None)
    base = getattr(module, "Player", None)
    if cls is None or base is None or not isinstance(cls, type) or not issubclass(cls, base):
        fail("%s.py must hold the course's Player class and class %s(Player), as the tournament creates %s.%s(1, %s.Player.CUSTOM)" % (name, name, name, name, name))
    players = {}
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != 1:
        fail("this bridge speaks protocol 1, got %r" % hello.get("protocol"))
    print(json.dumps({"type": "ready", "name": name}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") != "move":
            continue
        num = 1 if request["side"] == "bottom" else 2
        if num not in players:
            players[num] = cls(num, base.CUSTOM)
        player = players[num]
        board = MancalaBoard()
        mine, theirs = list(request["mine"]), list(request["theirs"])
        board.P1Cups, board.P2Cups = (mine, theirs) if num == 1 else (theirs, mine)
        board.scoreCups = [request["myStore"], request["theirStore"]] if num == 1 else [request["theirStore"], request["myStore"]]
        try:
            cup = player.chooseMove(board)
        except Exception:
            fail("%s.chooseMove raised:\n%s" % (name, traceback.format_exc()))
        if isinstance(cup, bool) or not isinstance(cup, int):
            fail("%s.chooseMove returned %r: expected a cup number, 1 to %d" % (name, cup, len(mine)))
        print(json.dumps({"id": request["id"], "move": cup - 1}), flush=True)


if __name__ == "__main__":
    main()

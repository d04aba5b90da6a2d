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
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The project's MancalaBoard first, then the shared bridge helpers, then the submission's folder.
sys.path[:0] = [HERE, os.path.join(HERE, os.pardir, "python"), os.getcwd()]
from MancalaBoard import MancalaBoard  # noqa: E402
from bridge_support import describe_exception, fail, import_student_module  # noqa: E402


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    name = sys.argv[1]
    module = import_student_module(name)
    cls = getattr(module, name, None)
    base = getattr(module, "Player", None)
    if cls is None or base is None or not isinstance(cls, type) or not issubclass(cls, base):
        fail("%s.py must hold the course's Player class and class %s(Player), as the tournament creates %s.%s(1, %s.Player.CUSTOM)" % (name, name, name, name, name))
    players = {}
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != 1:
        fail("this bridge speaks protocol 1, got %r" % hello.get("protocol"))
    send({"type": "ready", "name": name})
    for line in iter(sys.stdin.readline, ""):
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
            fail("%s.chooseMove raised %s" % (name, describe_exception()))
        if isinstance(cup, bool) or not isinstance(cup, int):
            fail("%s.chooseMove returned %r: expected a cup number, 1 to %d" % (name, cup, len(mine)))
        send({"id": request["id"], "move": cup - 1})


if __name__ == "__main__":
    main()

"""Client of the mancala-autograder stdio protocol, version 1 (agents/clients/PROTOCOL.md).

Write choose_move(request) and call run(choose_move, "my-name"). `request` is the move request
as a dict: request["mine"][m] is the pit move m empties, request["legal"] the moves you may play,
request["rules"] the game's rules as the hello named them (freeTurn, capture, gameEnd, …).
Return a move, or a dict {"move": m, "value": v, "nodes": n, "pv": [...], "log": [...]};
call report(move, value) while searching to publish the best move so far (anytime agents).
stdout carries the protocol: print your own logs to stderr (or return them in "log").
"""
import json
import sys


def run(choose_move, name="python-agent"):
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != 1:
        sys.exit(f"this client speaks protocol 1, the grader sent {hello.get('protocol')}")
    send({"type": "ready", "name": name})
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") != "move":
            continue  # a later protocol's message this client does not know
        # The hello's rules (pits, seeds, freeTurn, capture, gameEnd, …) travel with every request.
        request.setdefault("rules", (hello.get("game") or {}).get("rules", {}))
        answer = choose_move(request)
        if not isinstance(answer, dict):
            answer = {"move": answer}
        send({"id": request["id"], **answer})


def report(move, value=None):
    """Anytime agents: the best move so far, played if the answer comes too late."""
    send({"type": "report", "move": move, **({} if value is None else {"value": value})})


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

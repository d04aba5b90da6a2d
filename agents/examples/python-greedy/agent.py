"""A greedy agent over the stdio protocol (agents/clients/PROTOCOL.md): a move whose last stone lands
in its own store (the one nearest the store first, which spoils none of the others), else a move
that at least reaches the store, else the first legal move."""
from mancala_agent import run


def choose_move(request):
    mine, n = request["mine"], len(request["mine"])
    legal = request["legal"]
    lands = [m for m in legal if mine[m] == n - m]
    reaches = [m for m in legal if mine[m] > n - m]
    move = (lands or reaches or legal)[-1 if lands else 0]
    return {"move": move, "value": 1 if lands else 0, "nodes": 1}


run(choose_move, "python-greedy")

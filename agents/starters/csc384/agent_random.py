"""
CSC384 Assignment 2: agent_random.py, an agent that plays a random legal move, to play
against before your own agents work:  python3 mancala_cmdline.py -t agent_random.py
Written for this kit by mancala-autograder; it is not the course's file. Its choices come from a
seed (MANCALA_SEED in the environment) when one is given, so a game can be played again.
"""
import ast
import os
import random

from mancala_game import Board


def run_ai():
    print("Random AI")
    seed = os.environ.get("MANCALA_SEED")
    rng = random.Random(int(seed) if seed is not None and seed.isdigit() else None)
    color = int(input().split(",")[0])
    while True:
        status = input().split()[0]
        if status == "FINAL":
            return
        board = Board(ast.literal_eval(input()), ast.literal_eval(input()))
        print(rng.choice(board.get_possible_moves(color)))


if __name__ == "__main__":
    run_ai()

"""
CPSC 4610/5610 Homework 1: play in the terminal, as the course's MancalaGUI plays in a
window: startGame(player1, player2). Written for this kit by mancala-autograder; it is not the
course's file.

  python3 MancalaTerminal.py                       # you (player 1) against your player (player 2)
  python3 MancalaTerminal.py --second              # your player moves first
  python3 MancalaTerminal.py --opponent abprune --ply 5   # against your alpha-beta with MancalaPlayer's score
  python3 MancalaTerminal.py --opponent minimax    # against the provided minimax, ply 5
  python3 MancalaTerminal.py --tictactoe           # Tic-Tac-Toe against your alpha-beta (ply 9)

or, from Python, as with the course's GUI:
  >>> from MancalaTerminal import *
  >>> startGame(Player(1, Player.HUMAN), YourPlayer(2, Player.CUSTOM))

Your player is the file NAME.py beside this one holding `class NAME(Player)` (YourPlayer.py until
you rename it). Cups are numbered 1 to 6 on each side, in the order stones are sown.
"""
import argparse
import importlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from MancalaBoard import MancalaBoard  # noqa: E402
from TicTacToe import TTTBoard  # noqa: E402


def player_module():
    """Your player file: NAME.py holding class NAME(Player)."""
    for file in sorted(os.listdir(HERE)):
        name = file[:-3]
        if file.endswith(".py") and name != "Player":
            with open(os.path.join(HERE, file)) as f:
                if re.search(r"^class\s+%s\s*\(\s*Player\s*\)\s*:" % re.escape(name), f.read(), re.M):
                    return importlib.import_module(name), name
    sys.exit("no player file here: NAME.py holding class NAME(Player) (YourPlayer.py as the kit gives it)")


def startGame(player1, player2, board=None):
    """Plays a game between two players (player 1 moves first), printing the board; returns the winner (0: a tie)."""
    board = board if board is not None else MancalaBoard()
    winner = board.hostGame(player1, player2)
    print("a tie" if winner == 0 else "player %d wins" % winner)
    return winner


def main(argv=None):
    p = argparse.ArgumentParser(description="Play Mancala (or Tic-Tac-Toe) in the terminal against your player.")
    p.add_argument("--opponent", choices=("custom", "abprune", "minimax", "random"), default="custom", help="which of your players you play (default: your custom player)")
    p.add_argument("--ply", type=int, default=5, help="the depth of abprune and minimax: default 5, Tic-Tac-Toe 9")
    p.add_argument("--second", action="store_true", help="you are player 2: your player moves first")
    p.add_argument("--tictactoe", action="store_true", help="Tic-Tac-Toe against your alpha-beta (or minimax)")
    args = p.parse_args(argv)
    module, name = player_module()
    Player = module.Player
    you_num, its_num = (2, 1) if args.second else (1, 2)
    if args.tictactoe:
        kind = Player.MINIMAX if args.opponent == "minimax" else Player.ABPRUNE
        its = Player(its_num, kind, args.ply if args.ply != 5 else 9)
        board = TTTBoard()
    else:
        if args.opponent == "custom":
            its = getattr(module, name)(its_num, Player.CUSTOM)
        else:
            kind = {"abprune": Player.ABPRUNE, "minimax": Player.MINIMAX, "random": Player.RANDOM}[args.opponent]
            its = getattr(module, "MancalaPlayer", Player)(its_num, kind, args.ply)
        board = MancalaBoard()
    you = Player(you_num, Player.HUMAN)
    players = (its, you) if args.second else (you, its)
    try:
        winner = board.hostGame(*players)
    except (EOFError, KeyboardInterrupt):
        sys.exit("\nstopped")
    print("a tie" if winner == 0 else "you win" if winner == you_num else "%s wins" % name)


if __name__ == "__main__":
    main()

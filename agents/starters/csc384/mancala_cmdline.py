"""
CSC384 Assignment 2: mancala_cmdline.py, the game manager on the command line, with
the handout's flags. Written for this kit by mancala-autograder; it is not the course's file.

  python3 mancala_cmdline.py --dimension 6                          # two people at the keyboard
  python3 mancala_cmdline.py -t agent_alphabeta.py -l 6              # you (bottom) against your alpha-beta
  python3 mancala_cmdline.py -i board.txt -t agent_minimax.py -b agent_minimax.py -l 8 --caching
  python3 mancala_cmdline.py -d 7 -t agent_random.py -b agent_alphabeta.py -hb 1 -c

A side without an agent is a person typing pocket numbers (0 is the leftmost pocket as the board is
printed; `q` quits). An agent is a Python file run as a program: its provided run_ai() reads the
settings and each turn's board and prints its move. BOTTOM moves first. A board file holds the top
row, the bottom row (both left to right as printed), the top store and the bottom store, one a line.
"""
import argparse
import os
import subprocess
import sys

from mancala_game import Board, MancalaGameManager, TOP, BOTTOM

NAMES = {TOP: "TOP", BOTTOM: "BOTTOM"}
RUNNING = []


def stop(message):
    """Ends the game with one line on stderr; the agents still running are ended first."""
    sys.stdout.flush()
    for agent in RUNNING:
        if agent.proc.poll() is None:
            agent.proc.kill()
    sys.exit(message)


def read_board(path):
    """The board of a board file (four lines), or exits with one line saying what is wrong."""
    try:
        with open(path) as f:
            lines = [line.strip() for line in f if line.strip()]
        top, bottom = ([int(x) for x in line.split(",")] for line in lines[:2])
        stores = [int(lines[2]), int(lines[3])]
    except (OSError, ValueError, IndexError) as e:
        stop("%s: expected four lines: the top row, the bottom row (stones a pocket, comma-separated), the top store, the bottom store (%s)" % (path, e))
    if len(top) != len(bottom):
        stop("%s: the top row has %d pockets and the bottom row %d" % (path, len(top), len(bottom)))
    return Board([top, bottom], stores)


class AgentProgram(object):
    """A student's agent file, run as the course runs it: its run_ai() on stdin and stdout."""

    def __init__(self, path, player, limit, caching, heuristic):
        if not os.path.isfile(path):
            stop("%s: no such agent file" % path)
        self.path, self.player = path, player
        folder = os.path.dirname(os.path.abspath(path))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([folder, os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen([sys.executable, "-u", os.path.abspath(path)], cwd=folder, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, universal_newlines=True)
        RUNNING.append(self)
        self.send("%d,%d,%d,%d" % (player, limit, 1 if caching else 0, heuristic))

    def send(self, text):
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (IOError, OSError):
            pass  # it has ended: the next read says so

    def move(self, board):
        self.send("SCORE %d %d\n%r\n%r" % (board.mancalas[TOP], board.mancalas[BOTTOM], board.pockets, board.mancalas))
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                stop("%s (%s) stopped without printing a move (exit code %s); its error, if any, is above" % (self.path, NAMES[self.player], self.proc.wait()))
            word = line.strip()
            try:
                return int(word)
            except ValueError:
                print("[%s] %s" % (os.path.basename(self.path), word))

    def close(self, board):
        self.send("FINAL %d %d" % (board.mancalas[TOP], board.mancalas[BOTTOM]))
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def human_move(game):
    legal = game.get_possible_moves()
    while True:
        try:
            text = input("%s's move, a pocket %s (q quits): " % (NAMES[game.current_player], legal)).strip()
        except EOFError:
            text = "q"
        if text == "q":
            stop("stopped")
        if text.lstrip("-").isdigit() and int(text) in legal:
            return int(text)
        print("%r is not one of the pockets %s" % (text, legal))


def show(board):
    n = board.dimension
    print("\n   " + " ".join("%2d" % i for i in range(n)) + "    <- pocket numbers")
    print("   " + " ".join("%2d" % s for s in board.pockets[TOP]) + "    TOP")
    print("%2d " % board.mancalas[TOP] + "   " * n + "%2d" % board.mancalas[BOTTOM])
    print("   " + " ".join("%2d" % s for s in board.pockets[BOTTOM]) + "    BOTTOM")


def main(argv=None):
    p = argparse.ArgumentParser(description="Play Mancala (the CSC384 rules) on the command line: people and agent files.")
    p.add_argument("-d", "--dimension", type=int, default=6, help="pockets a side (default 6)")
    p.add_argument("-i", "--initialBoard", help="a board file to start from")
    p.add_argument("-t", "--agentTop", help="the TOP player's agent file (default: a person)")
    p.add_argument("-b", "--agentBottom", help="the BOTTOM player's agent file (default: a person)")
    p.add_argument("-ht", "--heuristicTop", type=int, choices=(0, 1), default=0, help="0 heuristic_basic, 1 heuristic_advanced")
    p.add_argument("-hb", "--heuristicBottom", type=int, choices=(0, 1), default=0, help="0 heuristic_basic, 1 heuristic_advanced")
    p.add_argument("-l", "--limit", type=int, default=-1, help="the agents' depth limit (-1: none)")
    p.add_argument("-c", "--caching", action="store_true", help="the agents cache the boards they search")
    args = p.parse_args(argv)
    board = read_board(args.initialBoard) if args.initialBoard else None
    game = MancalaGameManager(dimension=args.dimension, initial_board=board)
    agents = {}
    for player, path, heuristic in ((TOP, args.agentTop, args.heuristicTop), (BOTTOM, args.agentBottom, args.heuristicBottom)):
        if path:
            agents[player] = AgentProgram(path, player, args.limit, args.caching, heuristic)
    while not game.is_game_ended():
        show(game.board)
        player = game.current_player
        move = agents[player].move(game.board) if player in agents else human_move(game)
        if move not in game.get_possible_moves():
            stop("%s played pocket %r: expected one of %s" % (agents[player].path if player in agents else NAMES[player], move, game.get_possible_moves()))
        print("%s plays pocket %d" % (NAMES[player], move))
        game.play(move)
    show(game.board)
    for agent in agents.values():
        agent.close(game.board)
    top, bottom = game.get_final_scores()
    print("final score: TOP %d, BOTTOM %d: %s" % (top, bottom, "a tie" if top == bottom else "%s wins" % ("TOP" if top > bottom else "BOTTOM")))


if __name__ == "__main__":
    main()

"""
CSC384 Assignment 2: agent_minimax.py, the handout's agent_minimax_starter.py already
renamed. Written for this kit by mancala-autograder in the course's names; it is not the course's
file.

Fill in the six functions below (search for TODO), in this order, testing each before the next:
  1. minimax_max_basic / minimax_min_basic: no depth limit, no caching;
  2. minimax_max_limit / minimax_min_limit: with a depth limit;
  3. minimax_max_limit_caching / minimax_min_limit_caching: with a depth limit and caching.
Most of their code is the same; that is on purpose, so each version is tested on its own.

Each returns (best_move, value): the pocket index to play (None at a leaf) and its minimax value.
The rules every version follows (the tests grade your move and value):
  - `curr_player` is the player to move. Values are from the MAX player's point of view: a max
    function values a leaf with heuristic_func(board, curr_player), a min function with
    heuristic_func(board, get_opponent(curr_player)) (MAX is the opponent there);
  - a leaf is a finished board (board.is_game_over(): one row is empty; the stones left are not
    swept) or, with a depth limit, a board at the limit;
  - try the moves in the order board.get_possible_moves(curr_player) gives them and keep the FIRST
    best move: replace the best only when a value is strictly better;
  - play_move(board, curr_player, move) returns the next board (a new Board); there are no free
    turns: after a move the opponent moves (get_opponent(curr_player));
  - the depth limit counts moves: with depth_limit 1, each move is valued directly; -1 is no limit.

Provided code (do not change): the imports, select_move and run_ai at the bottom (how the
course's manager, mancala_cmdline.py, runs this file as a program).
"""
from mancala_game import Board, play_move
from utils import TOP, BOTTOM, get_opponent, heuristic_advanced, heuristic_basic


# ---- 1. basic minimax --------------------------------------------------------------------------

def minimax_max_basic(board, curr_player, heuristic_func):
    """(best_move, value) for MAX (`curr_player`, to move on `board`), searching to the end of the game."""
    # TODO
    raise NotImplementedError("minimax_max_basic")


def minimax_min_basic(board, curr_player, heuristic_func):
    """(best_move, value) for MIN (`curr_player`), the value still from MAX's point of view."""
    # TODO
    raise NotImplementedError("minimax_min_basic")


# ---- 2. with a depth limit ---------------------------------------------------------------------

def minimax_max_limit(board, curr_player, heuristic_func, depth_limit):
    """As minimax_max_basic, looking at most `depth_limit` moves ahead (0: value `board` itself)."""
    # TODO
    raise NotImplementedError("minimax_max_limit")


def minimax_min_limit(board, curr_player, heuristic_func, depth_limit):
    """As minimax_min_basic, looking at most `depth_limit` moves ahead."""
    # TODO
    raise NotImplementedError("minimax_min_limit")


# ---- 3. with a depth limit and caching ---------------------------------------------------------

def minimax_max_limit_caching(board, curr_player, heuristic_func, depth_limit, cache):
    """
    As minimax_max_limit, remembering what each board searched was worth in `cache` (a dict):
    look a board up before searching it, store the result after. A board searched with fewer
    moves left can be worth something else, and Board hashes its stones only (not the player to
    move): key an entry by what makes the result the same.
    """
    # TODO
    raise NotImplementedError("minimax_max_limit_caching")


def minimax_min_limit_caching(board, curr_player, heuristic_func, depth_limit, cache):
    """As minimax_min_limit, with the cache of minimax_max_limit_caching."""
    # TODO
    raise NotImplementedError("minimax_min_limit_caching")


# ---- provided: the agent as the course's manager runs it (do not change) -----------------------

def select_move(board, color, limit, caching, heuristic_func):
    """The move the agent plays: the version of the search the manager's flags ask for."""
    if caching:
        return minimax_max_limit_caching(board, color, heuristic_func, limit, {})[0]
    if limit >= 0:
        return minimax_max_limit(board, color, heuristic_func, limit)[0]
    return minimax_max_basic(board, color, heuristic_func)[0]


def run_ai():
    """
    The manager talks to this program on stdin and stdout: first `color,limit,caching,heuristic`
    (TOP 0 / BOTTOM 1, -1 for no limit, 0/1, 0 basic / 1 advanced), then each turn a status line
    (`SCORE top bottom`, or `FINAL ...` at the end), the pockets and the mancalas as Python
    literals; the program prints its move, a pocket index.
    """
    import ast
    print("Minimax AI")
    color, limit, caching, heuristic = (int(x) for x in input().split(","))
    heuristic_func = heuristic_advanced if heuristic == 1 else heuristic_basic
    while True:
        status = input().split()[0]
        if status == "FINAL":
            return
        pockets = ast.literal_eval(input())
        mancalas = ast.literal_eval(input())
        print(select_move(Board(pockets, mancalas), color, limit, caching == 1, heuristic_func))


if __name__ == "__main__":
    run_ai()

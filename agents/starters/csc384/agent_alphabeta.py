"""
CSC384 Assignment 2: agent_alphabeta.py, the handout's agent_alphabeta_starter.py
already renamed. Written for this kit by mancala-autograder in the course's names; it is not the
course's file.

The same structure as agent_minimax.py, with alpha-beta pruning. Fill in the six functions below
(search for TODO), in this order, testing each before the next:
  1. alphabeta_max_basic / alphabeta_min_basic: no depth limit, no caching;
  2. alphabeta_max_limit / alphabeta_min_limit: with a depth limit;
  3. alphabeta_max_limit_caching / alphabeta_min_limit_caching: with a depth limit and caching.

Each returns (best_move, value) as in agent_minimax.py, and follows its rules (values from MAX's
point of view, leaves, moves in board.get_possible_moves order with the FIRST best kept,
play_move, no free turns, the depth limit in moves, -1 for none). `alpha` and `beta` are the
window the caller passes down; the top call is made with float("-inf") and float("inf").
The value at the root must be the minimax value: pruning changes how many boards you look at,
never the answer.

Provided code (do not change): the imports, select_move and run_ai at the bottom (how the
course's manager, mancala_cmdline.py, runs this file as a program).
"""
from mancala_game import Board, play_move
from utils import TOP, BOTTOM, get_opponent, heuristic_advanced, heuristic_basic


# ---- 1. basic alpha-beta -----------------------------------------------------------------------

def alphabeta_max_basic(board, curr_player, alpha, beta, heuristic_func):
    """(best_move, value) for MAX (`curr_player`, to move on `board`), pruning with the window (alpha, beta)."""
    # TODO
    raise NotImplementedError("alphabeta_max_basic")


def alphabeta_min_basic(board, curr_player, alpha, beta, heuristic_func):
    """(best_move, value) for MIN (`curr_player`), the value still from MAX's point of view."""
    # TODO
    raise NotImplementedError("alphabeta_min_basic")


# ---- 2. with a depth limit ---------------------------------------------------------------------

def alphabeta_max_limit(board, curr_player, alpha, beta, heuristic_func, depth_limit):
    """As alphabeta_max_basic, looking at most `depth_limit` moves ahead (0: value `board` itself)."""
    # TODO
    raise NotImplementedError("alphabeta_max_limit")


def alphabeta_min_limit(board, curr_player, alpha, beta, heuristic_func, depth_limit):
    """As alphabeta_min_basic, looking at most `depth_limit` moves ahead."""
    # TODO
    raise NotImplementedError("alphabeta_min_limit")


# ---- 3. with a depth limit and caching ---------------------------------------------------------

def alphabeta_max_limit_caching(board, curr_player, alpha, beta, heuristic_func, depth_limit, cache):
    """
    As alphabeta_max_limit, remembering boards searched in `cache` (a dict). Careful: a value
    found with a narrow window may be only a bound on the true value, not the value itself.
    """
    # TODO
    raise NotImplementedError("alphabeta_max_limit_caching")


def alphabeta_min_limit_caching(board, curr_player, alpha, beta, heuristic_func, depth_limit, cache):
    """As alphabeta_min_limit, with the cache of alphabeta_max_limit_caching."""
    # TODO
    raise NotImplementedError("alphabeta_min_limit_caching")


# ---- provided: the agent as the course's manager runs it (do not change) -----------------------

def select_move(board, color, limit, caching, heuristic_func):
    """The move the agent plays: the version of the search the manager's flags ask for."""
    if caching:
        return alphabeta_max_limit_caching(board, color, float("-inf"), float("inf"), heuristic_func, limit, {})[0]
    if limit >= 0:
        return alphabeta_max_limit(board, color, float("-inf"), float("inf"), heuristic_func, limit)[0]
    return alphabeta_max_basic(board, color, float("-inf"), float("inf"), heuristic_func)[0]


def run_ai():
    """Talks to the manager as agent_minimax.py's run_ai does."""
    import ast
    print("Alpha-beta AI")
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

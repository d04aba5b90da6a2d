"""Depth-limited alpha-beta over the stdio protocol (agents/clients/PROTOCOL.md), searched the way
the project's reference agent `alphabeta` searches (README, search semantics), so that it chooses
the same move and finds the same value and node count at the same depth:

- moves are tried pit 0 first, then 1, 2, ... (the order of request["legal"] on the kalah profile);
- AIMA fail-soft alpha-beta: the player to move at the root maximises, the other minimises; a max
  node prunes when v >= beta, a min node when v <= alpha; every child gets the parent's current
  window, free-turn children too;
- the root keeps the first best move: a later move must be strictly better to replace it;
- a position at the depth limit is worth the root player's store minus the opponent's (the basic
  heuristic); a finished game is worth its final score (each side's remaining stones swept into
  its store) unless options["terminal"] is "heuristic", when it is valued as it stands;
- the depth is request["depth"]; every move is a level, or with options["unit"] == "turn" a move
  that earns a free turn keeps its level;
- a last stone in the mover's store earns a free turn, unless options["freeTurns"] is "ignore",
  when the players simply alternate;
- `nodes` counts the positions the search visited, the root included; `evaluations` the calls of
  the heuristic.

It plays Kalah, the rules of the kalah profile (the default of `mancala match`): a capture takes
the opposite pit when the last stone lands in an empty pit of the mover's own and the opposite pit
holds stones; the game ends when either row is empty. The hello line names the game's rules, but
the client reads it for us and a move request does not repeat them, so under another profile this
example still searches by Kalah's rules (its moves stay legal; its choices may not be the best).

A position is a list of 2n + 2 numbers seen from the root player, "me", as the request gives it:
    board[0 .. n-1]     my pits (request["mine"]), in sowing order
    board[n]            my store
    board[n+1 .. 2n]    the opponent's pits (request["theirs"]), in its sowing order
    board[2n+1]         the opponent's store
Sowing runs to increasing indices and wraps round; pit i is opposite pit 2n - i. The player to
move is ME (0) or THEM (1).
"""
import math

from mancala_agent import run

ME, THEM = 0, 1
# With no depth in the request (null, or a negative depth: no limit) this example searches this deep.
DEFAULT_DEPTH = 6


def pits_of(board, player):
    """The indices of `player`'s pits in `board`."""
    n = (len(board) - 2) // 2
    return range(0, n) if player == ME else range(n + 1, 2 * n + 1)


def store_of(board, player):
    n = (len(board) - 2) // 2
    return n if player == ME else 2 * n + 1


def row_sum(board, player):
    return sum(board[i] for i in pits_of(board, player))


def legal_moves(board, player):
    """The moves `player` may play, in the order the search tries them: pit 0 first."""
    return [move for move, pit in enumerate(pits_of(board, player)) if board[pit] > 0]


def sow(board, player, move, free_turns):
    """`player` sows its pit `move`: the new board, the player to move next and whether the game is over."""
    n = (len(board) - 2) // 2
    board = list(board)
    own_store = store_of(board, player)
    their_store = store_of(board, 1 - player)
    cell = pits_of(board, player)[move]
    stones, board[cell] = board[cell], 0
    while stones > 0:
        cell = (cell + 1) % len(board)
        if cell != their_store:  # the opponent's store is skipped
            board[cell] += 1
            stones -= 1
    if free_turns and cell == own_store:
        next_player = player  # a free turn
    else:
        opposite = 2 * n - cell
        if cell in pits_of(board, player) and board[cell] == 1 and board[opposite] > 0:
            board[own_store] += board[opposite] + 1  # a capture: both pits go to the mover's store
            board[cell] = board[opposite] = 0
        next_player = 1 - player
    over = row_sum(board, ME) == 0 or row_sum(board, THEM) == 0
    return board, next_player, over


class AlphaBeta:
    def __init__(self, options):
        self.turn_unit = options.get("unit") == "turn"
        self.sweep_finished_games = options.get("terminal", "score") == "score"
        self.free_turns = options.get("freeTurns", "honour") != "ignore"
        self.nodes = 0
        self.evaluations = 0

    def evaluate(self, board, over):
        """A leaf's value for the root player: a finished game's final score (each side's remaining
        stones swept into its store), or else the basic heuristic: the stores as they stand."""
        mine, theirs = board[store_of(board, ME)], board[store_of(board, THEM)]
        if over and self.sweep_finished_games:
            return (mine + row_sum(board, ME)) - (theirs + row_sum(board, THEM))
        self.evaluations += 1
        return mine - theirs

    def children(self, board, player, depth):
        """Each legal move with the position after it and the depth left there."""
        for move in legal_moves(board, player):
            child, next_player, over = sow(board, player, move, self.free_turns)
            keeps_level = self.turn_unit and next_player == player and not over
            yield move, child, next_player, over, depth if keeps_level else depth - 1

    def value(self, board, player, over, depth, alpha, beta):
        """The position's value for the root player, fail-soft within (alpha, beta)."""
        self.nodes += 1
        if over or depth <= 0:
            return self.evaluate(board, over)
        if player == ME:
            v = -math.inf
            for _, child, next_player, child_over, child_depth in self.children(board, player, depth):
                v = max(v, self.value(child, next_player, child_over, child_depth, alpha, beta))
                if v >= beta:
                    break
                alpha = max(alpha, v)
        else:
            v = math.inf
            for _, child, next_player, child_over, child_depth in self.children(board, player, depth):
                v = min(v, self.value(child, next_player, child_over, child_depth, alpha, beta))
                if v <= alpha:
                    break
                beta = min(beta, v)
        return v

    def best_move(self, board, depth):
        """The root: the first move with the best value, and that value (the root player moves)."""
        self.nodes += 1
        if depth <= 0:
            return legal_moves(board, ME)[0], self.evaluate(board, False)
        best, v, alpha = None, -math.inf, -math.inf
        for move, child, next_player, over, child_depth in self.children(board, ME, depth):
            child_value = self.value(child, next_player, over, child_depth, alpha, math.inf)
            if child_value > v:  # strictly better: ties keep the earlier move
                best, v = move, child_value
            alpha = max(alpha, v)
        return best, v


def choose_move(request):
    board = request["mine"] + [request["myStore"]] + request["theirs"] + [request["theirStore"]]
    depth = request.get("depth")
    if depth is None or depth < 0:
        depth = DEFAULT_DEPTH
    search = AlphaBeta(request.get("options") or {})
    move, value = search.best_move(board, depth)
    return {"move": move, "value": value, "nodes": search.nodes, "evaluations": search.evaluations}


if __name__ == "__main__":
    run(choose_move, "python-alphabeta")

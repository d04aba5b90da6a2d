"""Seed 000's homework (CSCI-561 style) as a student would hand it in: read input.txt, write
next_state.txt and, for MiniMax (task 2) and Alpha-Beta (task 3), traverse_log.txt.

Conventions (the course's official graded cases settle them): the agent maximises its store
minus the opponent's; a free turn keeps the depth and is still expanded at the cut-off; the game
ends after any move that leaves a row empty, each row swept to its owner's store; a capture takes
the opposite pit and the last stone even when the opposite pit is empty; pits are tried left to
right (B2.. / A2..), ties go to the first; alpha-beta prunes on v >= beta (max) and v <= alpha
(min). A game-over node's first visit, which the official logs mark OPTIONAL, is left out.
"""

INF = float("inf")


def fmt(v):
    if v == INF:
        return "Infinity"
    if v == -INF:
        return "-Infinity"
    return str(int(v))


class Board:
    """The ring of 2N+2 cells, counterclockwise: B2..B(N+1), player 1's store, A(N+1)..A2, player 2's store."""

    def __init__(self, n, cells, to_move):
        self.n, self.cells, self.to_move = n, cells, to_move

    def store(self, p):
        return self.n if p == 1 else 2 * self.n + 1

    def pits(self, p):
        n = self.n
        return range(0, n) if p == 1 else range(n + 1, 2 * n + 1)

    def moves(self):
        """(name, ring index) of the mover's non-empty pits, left to right as the figure shows them."""
        n, out = self.n, []
        for k in range(n):
            r = k if self.to_move == 1 else 2 * n - k
            if self.cells[r] > 0:
                out.append(("B%d" % (k + 2) if self.to_move == 1 else "A%d" % (k + 2), r))
        return out

    def over(self):
        return all(self.cells[i] == 0 for i in self.pits(1)) or all(self.cells[i] == 0 for i in self.pits(2))

    def play(self, r):
        n, c, p = self.n, self.cells[:], self.to_move
        size = 2 * n + 2
        own, other = self.store(p), self.store(3 - p)
        stones, pos = c[r], r
        c[r] = 0
        while stones > 0:
            pos = (pos + 1) % size
            if pos == other:
                continue
            c[pos] += 1
            stones -= 1
        child = Board(n, c, 3 - p)
        if pos == own:
            child.to_move = p
        elif pos in self.pits(p) and c[pos] == 1:
            opposite = 2 * n - pos
            c[own] += c[opposite] + 1
            c[opposite] = c[pos] = 0
        if child.over():
            for q in (1, 2):
                for i in child.pits(q):
                    c[child.store(q)] += c[i]
                    c[i] = 0
        return child

    def value(self, agent):
        return self.cells[self.store(agent)] - self.cells[self.store(3 - agent)]


class Search:
    def __init__(self, agent, cutoff, pruning, log):
        self.agent, self.cutoff, self.pruning, self.log = agent, cutoff, pruning, log

    def line(self, name, depth, v, alpha, beta):
        if self.log is None:
            return
        fields = [name, str(depth), fmt(v)]
        if self.pruning:
            fields += [fmt(alpha), fmt(beta)]
        self.log.append(",".join(fields))

    def node(self, b, name, depth, left, alpha, beta, mover_before):
        """The value of position b, reached by a move `name` shown at log depth `depth`, with `left` turns to search."""
        if b.over() or left <= 0:
            v = b.value(self.agent)
            self.line(name, depth, v, alpha, beta)
            return v, None
        maximizing = b.to_move == self.agent
        v = -INF if maximizing else INF
        self.line(name, depth, v, alpha, beta)
        best = None
        # a move from b is made in b's turn: the same turn as the move into b when its mover moved then too
        child_depth = depth if (mover_before is not None and b.to_move == mover_before) else depth + 1
        for move_name, r in b.moves():
            child = b.play(r)
            free_turn = not child.over() and child.to_move == b.to_move
            cv, _ = self.node(child, move_name, child_depth, left if free_turn else left - 1, alpha, beta, b.to_move)
            if maximizing and cv > v:
                v, best = cv, r
            if not maximizing and cv < v:
                v = cv
            if self.pruning:
                if maximizing and v >= beta or not maximizing and v <= alpha:
                    self.line(name, depth, v, alpha, beta)
                    return v, best
                if maximizing:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
            self.line(name, depth, v, alpha, beta)
        return v, best


def main():
    with open("input.txt") as f:
        lines = [l.strip() for l in f if l.strip() != ""]
    task, player, depth = int(lines[0]), int(lines[1]), int(lines[2])
    top, bottom = [int(x) for x in lines[3].split()], [int(x) for x in lines[4].split()]
    store2, store1 = int(lines[5]), int(lines[6])
    n = len(top)
    start = Board(n, bottom + [store1] + top[::-1] + [store2], player)
    cutoff = 1 if task == 1 else depth
    pruning = task == 3
    log = None if task == 1 else []
    if log is not None:
        log.append("Node,Depth,Value,Alpha,Beta" if pruning else "Node,Depth,Value")
    _, move = Search(player, cutoff, pruning, log).node(start, "root", 0, cutoff, -INF, INF, None)
    b = start.play(move)
    # the rest of the agent's turn: each free-turn move chosen by the same search from there
    while not b.over() and b.to_move == player:
        _, move = Search(player, cutoff, pruning, None).node(b, "root", 0, cutoff, -INF, INF, None)
        b = b.play(move)
    c = b.cells
    with open("next_state.txt", "w") as f:
        f.write(" ".join(str(x) for x in c[n + 1:2 * n + 1][::-1]) + "\n")
        f.write(" ".join(str(x) for x in c[0:n]) + "\n")
        f.write("%d\n%d\n" % (c[2 * n + 1], c[n]))
    if log is not None:
        with open("traverse_log.txt", "w") as f:
            f.write("\n".join(log) + "\n")


main()

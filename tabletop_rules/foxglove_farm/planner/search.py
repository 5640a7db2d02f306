"""Exact search for a cluster the constructive plan could not prove optimal.

Jammed goods (full buildings whose goods can go nowhere) make the relaxation's bound
unreachable or the constructive plan stuck. Then the planner searches the cluster's real
states, depth first with branch and bound:

- a *node* is the cluster's goods at the start of a transportation phase, with the
  processing points so far and whether a run has happened yet (the round has at least
  one processing run);
- from a node, every arrangement reachable by transports (and, with a Hauler's Hut,
  hauls at each phase's start and runs that fire nothing, which start a new phase) is
  enumerated breadth first; each may end the round, or run processing, giving a child
  node (one per outcome FF-R4 allows, for "different types" effects);
- a node is pruned when its relaxation bound cannot beat the best plan found, and skipped
  when it was already reached with at least as many points. At each node the
  constructive plan is tried first: it often closes the gap at once.

Jams mean few legal moves, so the arrangements enumerated stay few; the bound and the
constructive plan cut the rest.
"""

from __future__ import annotations

from collections import deque
from itertools import product

from ...deadline import Deadline
from ..model import GOODS, Goods
from .actions import Action, ClusterPlan, HaulAction, MoveAction
from .board import Board, State
from .realize import realize
from .relaxation import Relaxer

Run = tuple[str, dict[int, Goods]]
Token = Action | Run
Key = tuple[State, tuple[int, ...], bool]


POLL_EVERY = 256
"""Transports enumerated between two looks at the deadline."""


def search(board: Board, members: tuple[int, ...], state: State, relaxer: Relaxer,
           incumbent: ClusterPlan, budget: int | None, deadline: Deadline,
           ) -> tuple[ClusterPlan, bool]:
    """The best plan for the cluster, and True; or, when more than ``budget``
    arrangements would have to be looked at or ``deadline`` passes first, the best plan
    found so far (``incumbent`` if none beats it) and False."""
    searcher = _Search(board, members, relaxer, incumbent, budget, deadline)
    try:
        searcher.run(state)
    except _Stopped:
        return searcher.best(), False
    return searcher.best(), True


class _Stopped(Exception):
    pass


class _Search:
    def __init__(self, board: Board, members: tuple[int, ...], relaxer: Relaxer,
                 incumbent: ClusterPlan, budget: int | None, deadline: Deadline) -> None:
        self.board = board
        self.members = members
        self.relaxer = relaxer
        self.budget = budget
        self.deadline = deadline
        self.polled = 0
        spots = board.spots
        self.pool_of: dict[tuple[int, int], tuple[int, ...]] = {}
        for k, i in enumerate(members):
            for g, r in enumerate(spots[i].regions):
                if r >= 0:
                    self.pool_of[(k, g)] = tuple(
                        m for m, j in enumerate(members) if spots[j].regions[g] == r)
        self.slots = [spots[i].slots for i in members]
        self.huts = tuple(k for k, i in enumerate(members) if spots[i].haul and spots[i].slots)
        self.full_hauls = tuple(spots[members[k]].haul for k in self.huts)
        self.processors = tuple(k for k, i in enumerate(members) if spots[i].processes)
        self.best_value = incumbent.value
        self.best_tokens: list[Token] | None = None
        self.incumbent = incumbent
        self.seen: dict[tuple[State, bool], int] = {}

    def run(self, state: State) -> None:
        self._node(state, False, 0, [], first=True)

    def best(self) -> ClusterPlan:
        if self.best_tokens is not None:
            return self._plan(self.best_tokens)
        return self.incumbent

    def _offer(self, value: int, tokens: list[Token]) -> None:
        if value > self.best_value:
            self.best_value = value
            self.best_tokens = tokens

    def _poll(self, steps: int) -> None:
        """Stop once the deadline has passed, looking at it every :data:`POLL_EVERY`
        transports enumerated (an arrangement in a large cluster has hundreds)."""
        self.polled += steps
        if self.polled >= POLL_EVERY:
            self.polled = 0
            if self.deadline.expired():
                raise _Stopped

    def _node(self, state: State, ran: bool, points: int, path: list[Token],
              first: bool = False) -> None:
        self._poll(POLL_EVERY)
        board = self.board
        relaxation = self.relaxer.solve(state)
        bound = board.weight * points - sum(g.total for g in state) + relaxation.bound
        if bound <= self.best_value:
            return
        if not first:
            built = realize(board, self.members, state, relaxation, replan=self.relaxer,
                            deadline=self.deadline)
            if built is not None:
                self._offer(board.weight * points + built.value, path + _tokens(built))
                if bound <= self.best_value:
                    return
        children: dict[tuple[State, bool], tuple[int, Key, dict[int, Goods]]] = {}
        start: Key = (state, self.full_hauls, ran)
        parent: dict[Key, tuple[Key, Token | None] | None] = {start: None}
        known = 1
        queue = deque([start])
        while queue:
            key = queue.popleft()
            here, hauls, has_run = key
            if has_run:
                value = board.value(self.members, here, points)
                if value > self.best_value:
                    self._offer(value, path + self._trail(parent, key))
            outcomes = self._outcomes(here)
            if not outcomes:  # a run that fires nothing: a new phase, hauls again
                nxt: Key = (here, self.full_hauls, True)
                if nxt not in parent:
                    parent[nxt] = (key, ("run", {}))
                    queue.append(nxt)
            for after, gained, choices in outcomes:
                child = (after, True)
                if child not in children or children[child][0] < points + gained:
                    children[child] = (points + gained, key, choices)
            transports = self._transports(here, hauls, has_run)
            self._poll(1 + len(transports))
            for nxt, token in transports:
                if nxt not in parent:
                    parent[nxt] = (key, token)
                    queue.append(nxt)
            if self.budget is not None:
                self.budget -= len(parent) - known
                known = len(parent)
                if self.budget < 0:
                    raise _Stopped
        ranked = sorted(children.items(), key=lambda item: -item[1][0])
        for (after, has_run), (gained, key, choices) in ranked:
            if self.seen.get((after, has_run), -1) >= gained:
                continue
            self.seen[(after, has_run)] = gained
            trail = path + self._trail(parent, key) + [("run", choices)]
            self._node(after, has_run, gained, trail)

    def _outcomes(self, state: State) -> list[tuple[State, int, dict[int, Goods]]]:
        """Every result of one run (several when FF-R4 leaves a choice); empty when
        nothing fires."""
        board = self.board
        options = []
        for k in self.processors:
            spot = board.spots[self.members[k]]
            found = board.outcomes(spot, state[k])
            if found[0].steps:
                options.append([(k, o, n > 0) for n, o in enumerate(found)])
        results = []
        for combo in product(*options):
            after = list(state)
            points = 0
            choices: dict[int, Goods] = {}
            for k, outcome, chosen in combo:
                after[k] = outcome.goods
                points += outcome.points
                if chosen:
                    choices[self.members[k]] = outcome.goods
            results.append((tuple(after), points, choices))
        return results

    def _transports(self, state: State, hauls: tuple[int, ...], has_run: bool,
                    ) -> list[tuple[Key, Token]]:
        found: list[tuple[Key, Token]] = []
        for n, hut in enumerate(self.huts):
            if not hauls[n] or state[hut].total >= self.slots[hut]:
                continue
            left = hauls[:n] + (hauls[n] - 1,) + hauls[n + 1:]
            for k, goods in enumerate(state):
                if k == hut:
                    continue
                for g, count in enumerate(goods):
                    if count:
                        after = _shift(state, g, k, hut)
                        found.append(((after, left, has_run),
                                      HaulAction(self.members[hut],
                                                 ((g, self.members[k]),))))
        idle = (0,) * len(self.huts)
        for k, goods in enumerate(state):
            for g, count in enumerate(goods):
                if not count:
                    continue
                for d in self.pool_of[(k, g)]:
                    if d != k and state[d].total < self.slots[d]:
                        found.append(((_shift(state, g, k, d), idle, has_run),
                                      MoveAction(g, self.members[k], self.members[d])))
        return found

    @staticmethod
    def _trail(parent: dict[Key, tuple[Key, Token | None] | None], key: Key) -> list[Token]:
        tokens: list[Token] = []
        link = parent[key]
        while link is not None:
            previous, token = link
            if token is not None:
                tokens.append(token)
            link = parent[previous]
        tokens.reverse()
        return tokens

    def _plan(self, tokens: list[Token]) -> ClusterPlan:
        plan = ClusterPlan()
        segment: list[Action] = []
        for token in tokens:
            if isinstance(token, tuple):
                plan.segments.append(segment)
                plan.choices.append(token[1])
                segment = []
            else:
                segment.append(token)
        plan.segments.append(segment)
        plan.value = self.best_value
        return plan


def _shift(state: State, g: int, origin: int, destination: int) -> State:
    after = list(state)
    good = GOODS[g]
    after[origin] = after[origin].add(good, -1)
    after[destination] = after[destination].add(good, 1)
    return tuple(after)


def _tokens(plan: ClusterPlan) -> list[Token]:
    tokens: list[Token] = []
    for n, segment in enumerate(plan.segments):
        tokens.extend(segment)
        if n < plan.runs:
            tokens.append(("run", plan.choices[n]))
    return tokens

"""A small exact integer-program solver: dense two-phase simplex plus branch and bound.

The planner's relaxation (:mod:`.relaxation`) is an integer program with a handful of rows
(one per goods pool, a few per end-game tile) and tens of columns (one per kind of
processing batch). That is far too small to justify a native solver dependency (measured
against HiGHS: see the package docstring), and small enough that a textbook simplex in
floats is fast and numerically safe: every coefficient is a small integer, so the optimum
of each relaxation is exact to ~1e-9, far inside the margin of 1 that an integral
objective leaves for pruning. The branch and bound is bounded (:data:`NODE_LIMIT`, a
deadline) and, stopped, answers the bound its open nodes still allow.

``maximize c.x  subject to  A x <= b,  0 <= x <= upper,  x integer``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...deadline import NO_DEADLINE, Deadline

EPS = 1e-9
PRUNE_EPS = 1e-6
"""An LP bound within this of the next integer counts as reaching it (objectives are
integral, so a bound of 12.9999999 means 13 may still be reachable)."""


class UnboundedError(ValueError):
    """The program's objective has no upper bound (a conversion cycle that scores)."""


@dataclass(frozen=True, slots=True)
class IntegerProgram:
    """``maximize c.x`` subject to ``rows[i].x <= rhs[i]``, ``0 <= x <= upper``, x integer.

    Rows are sparse: ``{column: coefficient}``. ``upper[j]`` is ``None`` for no bound.
    """

    objective: tuple[int, ...]
    rows: tuple[dict[int, int], ...]
    rhs: tuple[int, ...]
    upper: tuple[int | None, ...]


def solve_lp(c: list[float], rows: list[dict[int, float]], rhs: list[float],
             ) -> tuple[float, list[float]] | None:
    """Maximum of ``c.x`` over ``rows.x <= rhs, x >= 0``: ``(value, x)``, ``None`` when
    infeasible; raises :class:`UnboundedError` when unbounded."""
    n = len(c)
    m = len(rows)
    # Columns: n structural, m slacks, then one artificial per row with negative rhs.
    negative = [i for i in range(m) if rhs[i] < 0]
    width = n + m + len(negative)
    table: list[list[float]] = []
    basis: list[int] = []
    art_of_row: dict[int, int] = {}
    for i, row in enumerate(rows):
        line = [0.0] * (width + 1)
        sign = -1.0 if rhs[i] < 0 else 1.0
        for j, a in row.items():
            line[j] = sign * a
        line[n + i] = sign
        line[width] = sign * rhs[i]
        if rhs[i] < 0:
            col = n + m + len(art_of_row)
            art_of_row[i] = col
            line[col] = 1.0
            basis.append(col)
        else:
            basis.append(n + i)
        table.append(line)
    if art_of_row:
        phase1 = [0.0] * (width + 1)
        for i in art_of_row:  # maximize -sum(artificials): reduced costs in row form
            for k in range(width + 1):
                phase1[k] += table[i][k]
        for col in art_of_row.values():
            phase1[col] = 0.0
        _run_simplex(table, basis, phase1, width)
        if phase1[width] > 1e-7:
            return None
        _drive_out_artificials(table, basis, n + m)
        table = [line[: n + m] + [line[width]] for line in table]
        width = n + m
    objective = [0.0] * (width + 1)
    for j in range(n):
        objective[j] = float(c[j])
    for i, col in enumerate(basis):  # price out the basic columns
        coef = objective[col]
        if coef:
            line = table[i]
            objective = [o - coef * a for o, a in zip(objective, line)]
    if not _run_simplex(table, basis, objective, width):
        raise UnboundedError("the relaxation is unbounded")
    x = [0.0] * n
    for i, col in enumerate(basis):
        if col < n:
            x[col] = table[i][width]
    return -objective[width], x


def _run_simplex(table: list[list[float]], basis: list[int], objective: list[float],
                 width: int) -> bool:
    """Pivot until no reduced cost is positive (``objective[j] > 0`` improves). Dantzig's
    rule, switching to Bland's (which cannot cycle) after a run of degenerate pivots.
    Returns False when unbounded. ``objective[width]`` holds minus the current value."""
    degenerate = 0
    while True:
        if degenerate > 50:
            entering = next((j for j in range(width) if objective[j] > EPS), -1)
        else:
            best = EPS
            entering = -1
            for j in range(width):
                if objective[j] > best:
                    best = objective[j]
                    entering = j
        if entering < 0:
            return True
        leave = -1
        ratio = math.inf
        for i, line in enumerate(table):
            a = line[entering]
            if a > EPS:
                r = line[width] / a
                if r < ratio - EPS or (r < ratio + EPS and leave >= 0
                                       and basis[i] < basis[leave]):
                    ratio = r
                    leave = i
        if leave < 0:
            return False
        degenerate = degenerate + 1 if ratio < EPS else 0
        _pivot(table, basis, objective, leave, entering)


def _pivot(table: list[list[float]], basis: list[int], objective: list[float],
           leave: int, entering: int) -> None:
    pivot_line = table[leave]
    p = pivot_line[entering]
    pivot_line = [a / p for a in pivot_line]
    table[leave] = pivot_line
    for i, line in enumerate(table):
        if i != leave:
            f = line[entering]
            if f:
                table[i] = [a - f * b for a, b in zip(line, pivot_line)]
    f = objective[entering]
    if f:
        objective[:] = [a - f * b for a, b in zip(objective, pivot_line)]
    basis[leave] = entering


def _drive_out_artificials(table: list[list[float]], basis: list[int], real: int) -> None:
    """After phase 1, pivot artificials still basic (at level 0) out, or drop their row
    when it has no real column left (a redundant constraint)."""
    i = 0
    while i < len(table):
        if basis[i] >= real:
            line = table[i]
            col = next((j for j in range(real) if abs(line[j]) > EPS), -1)
            if col < 0:
                del table[i]
                del basis[i]
                continue
            _pivot(table, basis, [0.0] * (len(line)), i, col)
        i += 1


NODE_LIMIT = 2_000
"""LP solves one branch and bound may make (about a second at worst); past it, or past
its deadline, it answers its best solution and the bound the open nodes still allow."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The best solution found, its value, and a proven upper bound on the optimum
    (``bound == value`` when the search finished)."""

    value: int
    bound: int
    x: tuple[int, ...]


def solve_ip(program: IntegerProgram, start: tuple[int, ...] | None = None,
             deadline: Deadline = NO_DEADLINE, node_limit: int = NODE_LIMIT) -> Solution:
    """The optimum of ``program`` and a solution reaching it, by depth-first branch and
    bound on LP relaxations. Branches on yes/no variables first (a Ranch's bonus: their
    fractions are what keeps the bound loose), then on the most fractional; of the two
    children, the one with the better bound is explored first. ``start`` is a known
    feasible solution; without it x = 0 must be feasible (every ``rhs`` at least 0), as
    doing nothing always is for the planner. Stopped by ``deadline`` or ``node_limit``,
    it answers the best solution so far with the bound still open."""
    n = len(program.objective)
    if start is None:
        if any(r < 0 for r in program.rhs):
            raise ValueError("solve_ip needs a feasible start when x = 0 is not feasible")
        start = (0,) * n
    best_x = start
    best_value = sum(c * v for c, v in zip(program.objective, start))
    relax = _Relaxation(program)
    root = relax.solve((0,) * n, program.upper)
    stack = [] if root is None else [((0,) * n, program.upper, root)]
    solves = 1
    while stack:
        lower, upper, (value, x) = stack.pop()
        if math.floor(value + PRUNE_EPS) <= best_value:
            continue
        branch = -1
        best_key = (False, PRUNE_EPS)
        for j, v in enumerate(x):
            frac = abs(v - round(v))
            if frac > PRUNE_EPS:
                key = (program.upper[j] == 1, frac)
                if key > best_key:
                    best_key, branch = key, j
        if branch < 0:
            xi = tuple(int(round(v)) for v in x)
            best_value = sum(cj * v for cj, v in zip(program.objective, xi))
            best_x = xi
            continue
        if solves >= node_limit or deadline.expired():
            bound = math.floor(max([value, *(node[2][0] for node in stack)]) + PRUNE_EPS)
            return Solution(best_value, max(bound, best_value), best_x)
        v = x[branch]
        down = list(upper)
        down[branch] = math.floor(v)
        up = list(lower)
        up[branch] = math.ceil(v)
        children = []
        for child in ((lower, tuple(down)), (tuple(up), upper)):
            solved = relax.solve(*child)
            solves += 1
            if solved is not None and math.floor(solved[0] + PRUNE_EPS) > best_value:
                children.append((*child, solved))
        children.sort(key=lambda item: item[2][0])
        stack.extend(children)
    return Solution(best_value, best_value, best_x)


class _Relaxation:
    """The LP relaxation of a program within variable bounds."""

    def __init__(self, program: IntegerProgram) -> None:
        self.program = program
        self.c = [float(v) for v in program.objective]
        self.rows = [{j: float(a) for j, a in row.items()} for row in program.rows]

    def solve(self, lower: tuple[int, ...], upper: tuple[int | None, ...],
              ) -> tuple[float, list[float]] | None:
        """``(value, x)`` of the LP with ``lower <= x <= upper``, or None if infeasible."""
        rows = list(self.rows)
        rhs = [float(r) for r in self.program.rhs]
        if any(lower):  # shift x = lower + y so that the LP keeps y >= 0
            for i, row in enumerate(rows):
                rhs[i] -= sum(a * lower[j] for j, a in row.items())
        for j, u in enumerate(upper):
            if u is not None:
                rows.append({j: 1.0})
                rhs.append(float(u - lower[j]))
        solved = solve_lp(self.c, rows, rhs)
        if solved is None:
            return None
        value, y = solved
        shift = sum(cj * lj for cj, lj in zip(self.program.objective, lower))
        return value + shift, [lj + yj for lj, yj in zip(lower, y)]


def solve_lexicographic(objectives: tuple[tuple[int, ...], ...], rows: tuple[dict[int, int], ...],
                        rhs: tuple[int, ...], upper: tuple[int | None, ...],
                        deadline: Deadline = NO_DEADLINE,
                        ) -> tuple[tuple[Solution, ...], tuple[int, ...]]:
    """Maximize ``objectives[0]``, then among its optima ``objectives[1]``, and so on:
    a :class:`Solution` per objective and a solution reaching all. One program per
    objective, each keeping the earlier optima as constraints; much faster than one
    weighted objective, whose relaxation gaps smaller than a point the search would have
    to close node by node. Stops after the first objective not proven optimal (its
    optimum unknown, the later ones cannot be constrained by it)."""
    solved: list[Solution] = []
    x: tuple[int, ...] | None = None
    rows_now, rhs_now = rows, rhs
    for objective in objectives:
        found = solve_ip(IntegerProgram(objective, rows_now, rhs_now, upper), x, deadline)
        solved.append(found)
        x = found.x
        if found.bound > found.value:
            break
        rows_now = (*rows_now, {j: -a for j, a in enumerate(objective) if a})
        rhs_now = (*rhs_now, -found.value)
    assert x is not None
    return tuple(solved), x

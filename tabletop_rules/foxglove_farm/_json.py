"""Foxglove Farm's own readers of the contract's JSON form (goods), on the shared
:mod:`tabletop_rules.json_reading`, whose readers the game's modules take from here.
"""

from __future__ import annotations

from ..json_reading import EXPECTED, noun, read_choice, read_int, read_object, read_whole
from ..problems import Path, Problem, not_one_of, quoted
from .pieces import GOODS, Good, Goods

__all__ = ["EXPECTED", "read_good", "read_goods"]
"""``EXPECTED`` as the engine's town reader has taken it from here."""

GOOD_NAMES = ", ".join(g.value for g in GOODS)
NOT_A_GOODS_TYPE = not_one_of("a goods type")
A_GOODS_TYPE = noun("GOODS_TYPE", "a goods type")
GOODS_COUNTS = noun("GOODS_COUNTS", f"an object of goods counts ({GOOD_NAMES})")


def read_good(value: object, path: Path, problems: list[Problem]) -> Good | None:
    name = read_choice(value, path, problems, (g.value for g in GOODS), A_GOODS_TYPE)
    return Good(name) if name is not None else None


def read_goods(value: object, path: Path, problems: list[Problem], max_each: int,
               min_each: int = 0, *, ranged: bool = True) -> Goods | None:
    """A goods object ``{"wood": 2}``; each count from ``min_each`` to ``max_each``, or
    any whole number if not ``ranged`` (a rules check then judges the counts)."""
    obj = read_object(value, path, problems, GOODS_COUNTS)
    if obj is None:
        return None
    counts: dict[Good, int] = {}
    ok = True
    for name, n in obj.items():
        if name not in Good._value2member_map_:
            problems.append(Problem((*path, name), NOT_A_GOODS_TYPE(
                value=quoted(name), expected=tuple(g.value for g in GOODS))))
            ok = False
            continue
        count = (read_int if ranged else read_whole)(n, (*path, name), problems, min_each,
                                                     max_each)
        if count is None:
            ok = False
        else:
            counts[Good(name)] = count
    return Goods.of(counts) if ok else None



"""Random contract-JSON boards and rank requests, from a ``random.Random``.

One generator serves both the seeded bulk runs (a fixed ``random.Random(seed)``, so a
run can count which verdicts it exercised) and hypothesis (``st.randoms``, so a failure
shrinks). Draws are biased toward boards that meet challenges: each board uses a few
ingredients, and challenge numbers stay near what a line can hold.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import strategies as st

from .reference import RULE_BY_TYPE, SIX, JsonDict

Path = tuple[str | int, ...]

CHALLENGE_TYPES = tuple(RULE_BY_TYPE)
MODES = ("standard", "young_shopper")


def random_tile(rng: random.Random, palette: list[str]) -> list[str]:
    """A Food tile of 1 to 3 ingredients from ``palette``, repeats allowed."""
    return [rng.choice(palette) for _ in range(rng.randint(1, 3))]


def random_grid(rng: random.Random, fill: float) -> list[list[list[str] | None]]:
    """A 4x4 grid; each space holds a tile with probability ``fill``."""
    palette = rng.sample(SIX, rng.randint(1, len(SIX)))
    return [[random_tile(rng, palette) if rng.random() < fill else None for _ in range(4)]
            for _ in range(4)]


def random_challenge(rng: random.Random, max_points: int = 12,
                     kind: str | None = None) -> JsonDict:
    """A well-formed CHALLENGE of type ``kind`` (any type if None)."""
    kind = kind or rng.choice(CHALLENGE_TYPES)
    challenge: JsonDict = {"type": kind, "points": rng.randint(0, max_points)}
    if kind == "exact_count":
        challenge["counts"] = {name: rng.randint(1, 4)
                               for name in rng.sample(SIX, rng.randint(1, 2))}
    elif kind == "forbidden":
        challenge["ingredients"] = rng.sample(SIX, rng.randint(1, 3))
    elif kind in ("exact_count_any", "exact_total"):
        challenge["count"] = rng.randint(1, 6 if kind == "exact_count_any" else 12)
    elif kind == "majority":
        challenge["ingredient"] = rng.choice(SIX)
    elif kind == "per_set":
        challenge["sets"] = [[rng.choice(SIX) for _ in range(rng.randint(1, 3))]
                             for _ in range(rng.randint(1, 3))]
    return challenge


def random_board(rng: random.Random, mode: str | None = None, max_points: int = 12,
                 kind: str | None = None) -> JsonDict:
    """A well-formed board, complete at least two times in three; standard two in three
    unless ``mode`` says, and always with ``kind``: then all eight challenges are of it."""
    mode = mode or ("standard" if kind else rng.choice(("standard", "standard", "young_shopper")))
    fill = rng.choice((1.0, 1.0, rng.random()))
    board: JsonDict = {"mode": mode, "grid": random_grid(rng, fill)}
    if mode == "standard":
        for side in ("row_challenges", "column_challenges"):
            board[side] = [random_challenge(rng, max_points, kind) for _ in range(4)]
    elif rng.random() < 0.5:
        board["row_challenges"] = board["column_challenges"] = []
    return board


def random_players(rng: random.Random, max_points: int = 3) -> list[JsonDict]:
    """A rank request's players: 1 to 4 boards of one mode, some duplicated to force ties.

    Small crate values make totals collide, so the later tie-breaks get exercised too.
    """
    mode = rng.choice(MODES)
    boards: list[JsonDict] = []
    for _ in range(rng.randint(1, 4)):
        if boards and rng.random() < 0.4:
            boards.append(rng.choice(boards))
        else:
            boards.append(random_board(rng, mode, max_points))
    return [{"name": f"player {i + 1}", "board": board} for i, board in enumerate(boards)]


def boards(mode: str | None = None, kind: str | None = None) -> st.SearchStrategy[JsonDict]:
    """Hypothesis strategy over :func:`random_board`."""
    return st.randoms(use_true_random=False).map(
        lambda rng: random_board(rng, mode=mode, kind=kind))


def players() -> st.SearchStrategy[list[JsonDict]]:
    """Hypothesis strategy over :func:`random_players`."""
    return st.randoms(use_true_random=False).map(random_players)


WORDS = (*SIX, *CHALLENGE_TYPES, *MODES, "cabbage", "", "type", "points", "count", "counts",
         "ingredient", "ingredients", "sets", "grid", "row_challenges", "name", "board")
"""The strings a garbled board is made of: the contract's own names and fields, and a
few that are none, so garbling reaches the readers of names as well as of JSON types
(and no other spelling of a name, which the gateway would read and the library not)."""

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(0, 200) | st.sampled_from((1.5, 3.0))
    | st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(WORDS), inner, max_size=4), max_leaves=12)
"""JSON values a board may be garbled with."""


def garbled(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[Any, Path]]:
    """A value drawn from ``valid`` with one part garbled, and the path of that part: a
    value replaced by random JSON, a key of an object deleted, or a key added."""

    @st.composite
    def garble(draw: st.DrawFn) -> tuple[Any, Path]:
        value = json.loads(json.dumps(draw(valid)))  # no part shared, as in JSON
        path: list[str | int] = []
        node = value
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            key = draw(st.sampled_from(list(node) if isinstance(node, dict)
                                       else range(len(node))))
            path.append(key)
            node = node[key]
        if isinstance(node, dict) and draw(st.booleans()):
            key = draw(st.sampled_from((*node, *WORDS)))
            if key in node and draw(st.booleans()):
                del node[key]
            else:
                node[key] = draw(json_values)
            return value, (*path, key)
        if not path:
            return draw(json_values), ()
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = draw(json_values)
        return value, tuple(path)

    return garble()

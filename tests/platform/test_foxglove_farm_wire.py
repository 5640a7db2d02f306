"""The engine reads a Foxglove Farm tile in the common way (a building the catalog defines,
a trail of distinct known sides) straight into its value, and every other one with the
collecting reader: both ways give the same town, or the same problems at the same paths."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings

from api_gateway.resources.foxglove_farm.schemas import TownSchema
from engine_service.foxglove_farm import convert
from referee.foxglove_farm.v1 import town_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.problems import InvalidInputError

from ..foxglove_farm.towns import b, load, t, town_data, town_dicts
from .foxglove_towns import KULY, RANCH

Outcome = fox.Town | list[tuple[str, str]]


def outcome(message: town_pb2.Town) -> Outcome:
    try:
        return convert.town_from_proto(message)
    except InvalidInputError as error:
        return [(p.pointer, p.message) for p in error.problems]


def both_ways(message: town_pb2.Town) -> tuple[Outcome, Outcome]:
    fast = outcome(message)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(convert, "_known_tile", lambda *_: None)
        return fast, outcome(message)


GOLDEN = [KULY["town"], RANCH["town"], load("jammed_60_tiles.json")["town"],
          town_data(b(1, 0, "kiln", wood=1), t(1, 1, "EW"), catalog={
              "kiln": {"slots": 2, "effects": [{"kind": "convert", "inputs": {"wood": 1},
                                                "goods": {"coal": 1}, "points": 1}]}})]


@pytest.mark.parametrize("data", GOLDEN)
def test_golden_towns_read_the_same_both_ways(data: dict[str, Any]) -> None:
    fast, slow = both_ways(TownSchema().load(data))
    assert isinstance(fast, fox.Town) and fast == slow


@settings(max_examples=60, deadline=None)
@given(town_dicts())
def test_random_towns_read_the_same_both_ways(data: dict[str, Any]) -> None:
    fast, slow = both_ways(TownSchema().load(data))
    assert isinstance(fast, fox.Town) and fast == slow


def _tile(rng: random.Random, town: town_pb2.Town) -> town_pb2.Tile:
    return rng.choice(town.tiles)


MUTATIONS: list[Callable[[random.Random, town_pb2.Town], object]] = [
    lambda rng, m: _tile(rng, m).trail.sides.append(rng.choice([0, 1, 2, 7, -1])),
    lambda rng, m: _tile(rng, m).trail.sides.extend([1, 1]),
    lambda rng, m: _tile(rng, m).trail.ClearField("sides"),
    lambda rng, m: setattr(_tile(rng, m).goods, rng.choice(["wood", "coal", "sheep"]),
                           rng.choice([0, 1, 3, -2, 5000])),
    lambda rng, m: _tile(rng, m).goods.SetInParent(),
    lambda rng, m: setattr(_tile(rng, m), "building", rng.choice(
        ["forrest", "x" * 101, "", "kiln", "mine", "windmill"])),
    lambda rng, m: _tile(rng, m).ClearField("building"),
    lambda rng, m: setattr(_tile(rng, m), "row", rng.choice([-1001, 0, 1, 1001])),
    lambda rng, m: m.catalog.update({"kiln": {"slots": rng.choice([2, -1, "two"]), "effects": []}}),
    lambda rng, m: m.catalog.update({rng.choice(["ranch", "forest"]): {"slots": -1}}),
    lambda rng, m: m.tiles.add(row=9, col=9, building="ranch"),
]


def test_anything_else_is_read_as_the_collecting_reader_reads_it() -> None:
    rng = random.Random(3)
    for _ in range(600):
        message = TownSchema().load(rng.choice(GOLDEN))
        for mutate in rng.sample(MUTATIONS, rng.randint(1, 3)):
            mutate(rng, message)
        fast, slow = both_ways(message)
        assert fast == slow

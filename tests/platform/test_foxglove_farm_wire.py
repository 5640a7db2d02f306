"""The engine reads a Foxglove Farm tile in the common way (a building the catalog defines,
a trail of distinct known sides) straight into its value, and every other one with the
collecting reader: both ways give the same town, or the same problems at the same paths.
It writes a town and a score as their encodings, the ones protobuf writes for the
messages they parse into, and a town written reads back as itself."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings

from api_gateway.resources.foxglove_farm.schemas import TownSchema
from engine_service.foxglove_farm import convert, town_reading
from engine_service.wording import sentence_fields
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import scoring_pb2, town_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import parse_town
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
        patch.setattr(town_reading, "_known_tile", lambda *_: None)
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


def _written_towns() -> list[fox.Town]:
    towns = [parse_town(data) for data in GOLDEN]
    odd = towns[0]
    trails = {fox.Position(5, c): fox.TrailTile(fox.Position(5, c), frozenset(sides))
              for c, sides in enumerate(combinations(fox.SIDES, 2))}
    towns.append(replace(odd, tiles={**odd.tiles, **trails, fox.Position(-3, -1000): fox.TrailTile(
        fox.Position(-3, -1000), frozenset())}, score_track=0, variant=fox.Variant.EXPERT))
    return towns


def _canonical(message: Any, data: bytes) -> Any:
    """The message ``data`` encodes, which protobuf writes back as ``data`` (but for a
    catalog, a Struct: protobuf writes a map's entries in no set order)."""
    parsed = message.FromString(data)
    if not (hasattr(parsed, "catalog") and parsed.HasField("catalog")):
        assert parsed.SerializeToString() == data
    return parsed


@pytest.mark.parametrize("town", _written_towns())
def test_towns_are_written_as_protobuf_writes_them(town: fox.Town) -> None:
    for with_catalog in (True, False):
        written = _canonical(town_pb2.Town, convert.town_to_wire(town, with_catalog=with_catalog))
        assert written.HasField("catalog") is (with_catalog and bool(town.catalog.requested))
        assert len(written.tiles) == len(town.tiles)


@pytest.mark.parametrize("data", GOLDEN[:3])
def test_a_town_written_reads_back_as_itself(data: dict[str, Any]) -> None:
    """(A town defining buildings reads back with its definitions, plus the tiers of the
    built-in building it defines anew, which the catalog's format writes beside them.)"""
    town = parse_town(data)
    assert convert.town_from_proto(town_pb2.Town.FromString(convert.town_to_wire(town))) == town


def test_a_legal_transport_is_answered_with_the_path_and_the_town_after() -> None:
    answered = 0
    for data in (KULY, GOLDEN[3]):
        town = parse_town(data["town"] if "town" in data else data)
        for tile in town.buildings:
            for good in fox.GOODS:
                for destination in town.buildings:
                    verdict = fox.validate_transport(town, fox.Move(good, 1, tile.position,
                                                                    destination.position))
                    if not verdict.legal:
                        continue
                    answer = _canonical(service_pb2.ValidateTransportResponse,
                                        convert.transport_verdict_to_wire(verdict))
                    assert answer.legal and not answer.violations
                    assert [fox.Position(p.row, p.col) for p in answer.path] == list(verdict.path)
                    assert convert.town_from_proto(answer.town) == verdict.town
                    answered += 1
    assert answered >= 3


def _same_score_as_the_rules(town: fox.Town) -> None:
    score = fox.score_town(town)
    written = _canonical(scoring_pb2.TownScore, convert.score_to_wire(score))
    assert (written.total, written.score_track, written.end_game_points,
            written.goods_remaining, written.tile_count) == (
        score.total, score.score_track, score.end_game_points, score.goods_remaining,
        score.tile_count)
    assert [(e.building, e.row, e.col, e.points, e.explanation, e.rule, e.code,
             [(f.kind, f.points, f.explanation, [(t.row, t.col, t.building) for t in f.tiles])
              for f in e.effects]) for e in written.end_game] == [
        (e.building, e.row, e.col, e.points, e.explanation, e.rule,
         sentence_fields(e.explanation)["code"],
         [(f.kind, f.points, f.explanation, [(t.row, t.col, t.building) for t in f.tiles])
          for f in e.effects]) for e in score.end_game]
    assert (written.rules_version, written.catalog_version) == tuple(convert.versions().values())


@pytest.mark.parametrize("data", [*GOLDEN, town_data(t(-1, 0, "NS"),
                                                    b(-2, 0, "community_centre"))])
def test_golden_scores_are_written_as_the_rules_scored(data: dict[str, Any]) -> None:
    _same_score_as_the_rules(parse_town(data))


@settings(max_examples=60, deadline=None)
@given(town_dicts())
def test_random_scores_are_written_as_the_rules_scored(data: dict[str, Any]) -> None:
    _same_score_as_the_rules(parse_town(data))

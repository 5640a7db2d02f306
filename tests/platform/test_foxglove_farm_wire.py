"""The engine reads a Foxglove Farm tile in the common way (a building the catalog defines,
a trail of distinct known sides) straight into its value, and every other one with the
collecting reader: both ways give the same town, or the same problems at the same paths.
It writes a town as its encoding: the same message as one written field by field."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings

from api_gateway.resources.foxglove_farm.schemas import TownSchema
from engine_service.foxglove_farm import convert, enums, town_reading
from engine_service.wording import sentence_fields
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import scoring_pb2, town_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import parse_town
from tabletop_rules.foxglove_farm.catalog_format import catalog_to_dict
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


def _town_by_fields(town: fox.Town, with_catalog: bool = True) -> town_pb2.Town:
    """A town written field by field, the reference for the engine's encoding."""
    tiles = []
    for tile in town.tiles.values():
        where = {"row": tile.position.row, "col": tile.position.col}
        if isinstance(tile, fox.TrailTile):
            tiles.append(town_pb2.Tile(**where, trail=town_pb2.Trail(
                sides=[enums.SIDE_TO_PROTO[s] for s in fox.SIDES if s in tile.sides])))
            continue
        message = town_pb2.Tile(**where, building=tile.building.id)
        if any(tile.goods):
            message.goods.CopyFrom(town_pb2.Goods(**tile.goods.to_dict()))
        tiles.append(message)
    town_message = town_pb2.Town(variant=enums.VARIANT_TO_PROTO[town.variant],
                                 score_track=town.score_track, tiles=tiles)
    if with_catalog and town.catalog.requested:
        town_message.catalog.update(catalog_to_dict(town.catalog, only_requested=True))
    return town_message


def _written_towns() -> list[fox.Town]:
    towns = [parse_town(data) for data in GOLDEN]
    odd = towns[0]
    trails = {fox.Position(5, c): fox.TrailTile(fox.Position(5, c), frozenset(sides))
              for c, sides in enumerate(combinations(fox.SIDES, 2))}
    towns.append(replace(odd, tiles={**odd.tiles, **trails, fox.Position(-3, -1000): fox.TrailTile(
        fox.Position(-3, -1000), frozenset())}, score_track=0, variant=fox.Variant.EXPERT))
    return towns


@pytest.mark.parametrize("town", _written_towns())
def test_towns_are_written_as_field_by_field(town: fox.Town) -> None:
    for with_catalog in (True, False):
        written = convert.town_to_proto(town, with_catalog=with_catalog)
        expected = _town_by_fields(town, with_catalog)
        assert written == expected
        assert written.SerializeToString() == expected.SerializeToString()


def test_a_legal_transport_is_answered_as_field_by_field() -> None:
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
                    assert verdict.town is not None
                    expected = service_pb2.ValidateTransportResponse(
                        legal=True, town=_town_by_fields(verdict.town),
                        path=[town_pb2.Position(row=p.row, col=p.col) for p in verdict.path])
                    assert convert.transport_verdict_to_proto(verdict) == expected
                    answered += 1
    assert answered >= 3


def _score_by_fields(score: fox.TownScore) -> scoring_pb2.TownScore:
    """A score written field by field, as the engine wrote it before writing encodings."""
    return scoring_pb2.TownScore(
        total=score.total, score_track=score.score_track,
        end_game_points=score.end_game_points,
        end_game=[scoring_pb2.EndGameEntry(
            building=e.building, row=e.row, col=e.col, points=e.points,
            explanation=e.explanation, rule=e.rule, **sentence_fields(e.explanation),
            effects=[scoring_pb2.EndGameEffect(
                kind=effect.kind, points=effect.points, explanation=effect.explanation,
                rule=effect.rule, **sentence_fields(effect.explanation),
                tiles=[scoring_pb2.CountedTile(
                    row=t.row, col=t.col, building=t.building,
                    via=[{"row": p.row, "col": p.col} for p in t.via]) for t in effect.tiles])
                for effect in e.effects]) for e in score.end_game],
        goods_remaining=score.goods_remaining, tile_count=score.tile_count,
        **convert.versions())


def _same_score_both_ways(town: fox.Town) -> None:
    score = fox.score_town(town)
    written, expected = convert.score_to_proto(score), _score_by_fields(score)
    assert written == expected
    assert written.SerializeToString() == expected.SerializeToString()


@pytest.mark.parametrize("data", [*GOLDEN, town_data(t(-1, 0, "NS"),
                                                    b(-2, 0, "community_centre"))])
def test_golden_scores_are_written_as_field_by_field(data: dict[str, Any]) -> None:
    _same_score_both_ways(parse_town(data))


@settings(max_examples=60, deadline=None)
@given(town_dicts())
def test_random_scores_are_written_as_field_by_field(data: dict[str, Any]) -> None:
    _same_score_both_ways(parse_town(data))

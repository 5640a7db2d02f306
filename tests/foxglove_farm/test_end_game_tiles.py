"""Each end-game effect names the tiles it counted: the buildings a Community Centre
reached and the trails by which (FF-R6), a Guildhall's processing neighbours (FF-R8)."""

from __future__ import annotations

from tabletop_rules.foxglove_farm import score_town
from tabletop_rules.foxglove_farm.model import Position

from .test_scoring import COMMUNITY, GUILD
from .towns import town


def effect(town_: object, building: str) -> object:
    (entry,) = [e for e in score_town(town_).end_game if e.building == building]  # type: ignore[arg-type]
    (only,) = entry.effects
    return only


def test_the_community_centre_lists_the_buildings_it_reached_and_by_which_trails() -> None:
    centre = effect(town(*COMMUNITY), "community_centre")
    reached = {(t.building, t.position): t.via for t in centre.tiles}  # type: ignore[attr-defined]
    assert reached == {
        ("butcher", Position(1, 2)): (Position(1, 1),),
        ("forest", Position(0, 0)): (Position(1, 1), Position(1, 0)),
    }
    assert centre.explanation.code == "FF_COMMUNITY_CENTRE"  # type: ignore[attr-defined]
    assert centre.points == 3 * len(reached)  # type: ignore[attr-defined]


def test_the_guildhall_lists_its_processing_neighbours() -> None:
    hall = effect(town(*GUILD), "guildhall")
    around = Position(1, 1).surrounding()
    assert all(t.position in around and t.via == () for t in hall.tiles)  # type: ignore[attr-defined]
    assert hall.points == 3 * len(hall.tiles)  # type: ignore[attr-defined]
    assert {(t.building, t.position) for t in hall.tiles} == {  # type: ignore[attr-defined]
        ("charcoal_kiln", Position(0, 2)), ("butcher", Position(1, 2)),
        ("market", Position(2, 0))}

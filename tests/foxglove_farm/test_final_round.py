"""The final round as a game: the rulebook's Kuly example played move by move, and each
refusal the round adds to the transport rules."""

from __future__ import annotations

import pytest

from tabletop_rules.foxglove_farm import Good, Goods, Move, Pick, Position, Reason, parse_town
from tabletop_rules.foxglove_farm import final_round as ff
from tabletop_rules.foxglove_farm.json_form import parse_move
from tabletop_rules.game import IllegalMoveError, apply, replay

from .towns import b, load, t, town

KULY = load("kuly_transport_and_processing.json")
P = Position


def kuly_log() -> list[ff.FinalRoundMove]:
    return [*(parse_move(step["move"]) for step in KULY["transportation"]), ff.Process(),
            ff.EndRound()]


def test_the_kuly_example_played_move_by_move() -> None:
    """A, B and C, one processing run (14 points), then the Ranch's 3 (FF-R15, FF-R16)."""
    setup = ff.Setup("Kuly", parse_town(KULY["town"]))
    result = replay(ff.GAME, setup, kuly_log())
    assert result.legal and result.state.over and result.state.runs == 1
    assert result.state.town.score_track == KULY["processing"]["points"]
    assert result.ranking is not None
    [standing] = result.ranking.standings
    assert standing.name == "Kuly"
    assert standing.score.total == (KULY["processing"]["points"]
                                    + KULY["end_game"]["ranch_points"])


def test_step_b_before_step_a_is_refused_for_want_of_slots() -> None:
    state = ff.GAME.new_game(ff.Setup("Kuly", parse_town(KULY["town"])))
    verdict = ff.GAME.validate(state, kuly_log()[1])
    assert [(v.reason, v.pointer("move")) for v in verdict.violations] == [
        (Reason.NOT_ENOUGH_FREE_SLOTS, "/move/to")]


def test_the_round_ends_only_after_a_run_and_then_nothing_more() -> None:
    state = ff.GAME.new_game(ff.Setup("Kuly", parse_town(KULY["town"])))
    assert ff.EndRound() not in ff.GAME.legal_moves(state)
    [violation] = ff.GAME.validate(state, ff.EndRound()).violations
    assert (violation.reason, violation.rule) == (Reason.NO_PROCESSING_YET, "FF-R15")
    over = apply(ff.GAME, apply(ff.GAME, state, ff.Process()), ff.EndRound())
    assert ff.GAME.legal_moves(over) == () and ff.GAME.turn(over).expected is None
    with pytest.raises(IllegalMoveError) as error:
        apply(ff.GAME, over, ff.Process())
    assert [v.reason for v in error.value.violations] == [Reason.ROUND_OVER]


# Forest - trail - Charcoal Kiln down column 0; a Hauler's Hut beside the trail.
HUT_TOWN = [b(0, 0, "forest", wood=3), b(0, 1, "mine", stone=2), t(1, 0, "NS"),
            b(2, 0, "charcoal_kiln"), b(1, 1, "haulers_hut")]


def test_a_hut_hauls_once_per_phase_and_before_its_first_transport() -> None:
    state = ff.GAME.new_game(ff.Setup("Ana", town(*HUT_TOWN, start=False)))
    haul = ff.Haul(P(1, 1), (Pick(Good.STONE, 1, P(0, 1)),))
    hauled = apply(ff.GAME, state, haul)
    assert hauled.town.goods_at(P(1, 1)) == Goods(stone=1)
    assert [v.reason for v in ff.GAME.validate(hauled, haul).violations] == [
        Reason.ALREADY_HAULED]
    moved = apply(ff.GAME, state, Move(Good.WOOD, 1, P(0, 0), P(2, 0)))
    assert [(v.reason, v.pointer("move")) for v in ff.GAME.validate(moved, haul).violations
            ] == [(Reason.HAUL_AFTER_TRANSPORT, "/move/to")]
    after_run = apply(ff.GAME, moved, ff.Process())
    assert apply(ff.GAME, after_run, haul).town.goods_at(P(1, 1)) == Goods(stone=1)


def test_a_processing_choice_must_be_an_outcome_of_the_building() -> None:
    state = ff.GAME.new_game(ff.Setup("Kuly", parse_town(KULY["town"])))
    verdict = ff.GAME.validate(state, ff.Process(((P(1, 1), Goods(sheep=9)),)))
    assert [(v.reason, v.path) for v in verdict.violations] == [
        (Reason.NOT_A_PROCESSING_CHOICE, ("choices", 0))]

"""Turns, phases and rounds of farm_game.GAME: the round's four phases, construction
turns clockwise from the start player (FF-R14), the start player piece moving each round,
round 3's B tiles (FF-R13), the final round (FF-R15), the game's end and standings
(FF-R16), a solo game's score thresholds (FF-R20), and the score floor (FF-R18). Each
refusal names its reason, its rule and the part of the action that breaks it."""

from __future__ import annotations

import pytest

from tabletop_rules.foxglove_farm import parse_town
from tabletop_rules.foxglove_farm.central_board import (
    SOLO_SETUPS,
    SoloOutcome,
    Space,
    StacksLeft,
    solo_outcome,
)
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_state import (
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    EndRound,
    GamePhase,
    GameState,
    HaulGoods,
    Pass,
    ProcessGoods,
    Produce,
    Transport,
)
from tabletop_rules.foxglove_farm.model import Good, Goods
from tabletop_rules.foxglove_farm.reasons import Reason
from tabletop_rules.foxglove_farm.transport import Pick
from tabletop_rules.game import Turn
from tabletop_rules.problems import InvalidInputError

from .game_states import (
    A_TILES,
    FOREST,
    MINE,
    SHEEPFOLD_COST,
    P,
    at,
    farm,
    finish_round,
    new_game,
    pay,
    play,
    refusals,
    trail,
    with_town,
)
from .towns import b, load, t

ROUND_RULE = "FF-RULEBOOK-ROUND-OVERVIEW"
KULY = load("kuly_transport_and_processing.json")
B_TILES = ("fountain", "baths", "brewery", "fountain", "emporium", "guildhall", "bakehouse",
           "discount_store")
"""Drawn for a 3-player board's 7 B spaces: the second Fountain stacks on the first."""


def produced(players: int = 3, start: int = 0) -> GameState:
    """Round 1's construction phase: every player has produced (5 wood, 3 stone)."""
    state = new_game(players, start)
    return play(state, *(Produce(seat) for seat in range(players)))


# -- setup -----------------------------------------------------------------------------

@pytest.mark.parametrize("players, a_spaces", [(2, 6), (3, 7), (4, 8)])
def test_the_board_has_6_7_or_8_a_spaces_and_4_c_spaces(players, a_spaces) -> None:
    state = new_game(players)
    assert len(state.board.offer) == a_spaces and None not in state.board.offer
    assert len(state.board.c_spaces) == 4
    assert state.board.stacks == StacksLeft(31 - a_spaces, 35, 24 - 4)
    with pytest.raises(InvalidInputError) as error:  # one A tile short
        new_game(players, a_tiles=A_TILES[players][:-1])
    assert [p.pointer for p in error.value.problems] == ["/a_tiles"]


def test_a_setup_names_a_seat_that_exists_as_start_player() -> None:
    with pytest.raises(InvalidInputError) as error:
        new_game(2, start=2)
    assert [p.pointer for p in error.value.problems] == ["/start_player"]


# -- production ------------------------------------------------------------------------

def test_a_game_begins_with_round_1_production_from_the_start_player() -> None:
    state = new_game(3, start=2)
    assert (state.round, state.phase) == (1, GamePhase.PRODUCTION)
    assert (GAME.turn(state).player, GAME.turn(state).expected) == (2, "produce")
    assert GAME.legal_moves(state) == (Produce(2), Produce(0), Produce(1))


def test_production_is_simultaneous_and_the_phase_ends_when_everyone_produced() -> None:
    state = play(new_game(3, start=2), Produce(0), Produce(2))  # any order
    assert state.phase is GamePhase.PRODUCTION
    assert GAME.turn(state).player == 1 and GAME.legal_moves(state) == (Produce(1),)
    assert refusals(state, Produce(0)) == [(Reason.ALREADY_DONE, ROUND_RULE, "/action/player")]
    state = play(state, Produce(1))
    assert state.phase is GamePhase.CONSTRUCTION
    assert (GAME.turn(state).player, GAME.turn(state).expected) == (2, "construct")


def test_charred_grounds_costs_a_point_per_coal_and_the_score_stops_at_0() -> None:
    """FF-R18: 2 points and 4 coal end at 0, not -2; 10 points end at 6."""
    for score, after in ((2, 0), (10, 6)):
        town = farm(b(1, 0, "charred_grounds", coal=4), score_track=score)
        state = play(with_town(new_game(), 0, town), Produce(0))
        assert state.players[0].score == after
        assert state.players[0].town.goods_at(P(1, 0)) == Goods(coal=4)


def test_losses_come_before_gains_so_the_floor_costs_the_player_least() -> None:
    """"In any order you like": with 2 points, the Charred Grounds' 4 coal first (0,
    floored), then the Fountain's 3: 3 points, not 2 + 3 - 4 = 1."""
    town = farm(b(1, 0, "charred_grounds", coal=4), b(-1, 0, "fountain"), score_track=2)
    state = play(with_town(new_game(), 0, town), Produce(0))
    assert state.players[0].score == 3


def test_fountain_points_each_production_phase() -> None:
    state = play(with_town(new_game(), 0, farm(b(1, 0, "fountain"), score_track=6)), Produce(0))
    assert state.players[0].score == 9


# -- construction turns ----------------------------------------------------------------

def test_construction_turns_go_clockwise_from_the_start_player_and_skip_passed_players() -> None:
    state = produced(3, start=1)
    assert state.current_player == 1
    state = play(state, Pass(1))
    assert GAME.turn(state).player == 2
    state = play(state, BuildTrails(2, (trail(1, 0, "NS"),), (pay(FOREST, wood=1),)))
    assert GAME.turn(state).player == 0
    state = play(state, BuildTrails(0, (trail(1, 0, "NS"),), (pay(FOREST, wood=1),)))
    assert GAME.turn(state).player == 2  # Bob passed: his turns are skipped
    state = play(state, Pass(2))
    assert GAME.turn(state).player == 0
    state = play(state, BuildBuilding(0, "sheepfold", P(2, 0), SHEEPFOLD_COST),
                 DrawTiles(("barn",)))
    assert GAME.turn(state).player == 0  # the one player left goes on until passing
    assert state.phase is GamePhase.CONSTRUCTION
    state = play(state, Pass(0))
    assert state.phase is GamePhase.TRANSPORTATION
    assert not any(p.passed for p in state.players)
    assert GAME.turn(state) == Turn(1, "transport")


def test_acting_after_passing_is_refused() -> None:
    state = play(produced(3), Pass(0), Pass(1))
    assert refusals(state, Pass(0)) == [(Reason.ALREADY_PASSED, "FF-R14", "/action/player")]
    build = BuildBuilding(1, "sheepfold", P(1, 0), SHEEPFOLD_COST)
    assert refusals(state, build) == [(Reason.ALREADY_PASSED, "FF-R14", "/action/player")]


def test_acting_out_of_turn_is_refused() -> None:
    state = produced(3)
    build = BuildBuilding(1, "sheepfold", P(1, 0), SHEEPFOLD_COST)
    [refusal] = GAME.validate(state, build).violations
    assert (refusal.reason, refusal.rule, refusal.pointer("action")) == (
        Reason.NOT_YOUR_TURN, "FF-R14", "/action/player")
    assert "Ann" in refusal.message
    assert refusals(state, Pass(2)) == [(Reason.NOT_YOUR_TURN, "FF-R14", "/action/player")]


@pytest.mark.parametrize("phase, action", [
    (GamePhase.PRODUCTION, Pass(0)),
    (GamePhase.PRODUCTION, BuildBuilding(0, "sheepfold", P(1, 0), SHEEPFOLD_COST)),
    (GamePhase.PRODUCTION, ProcessGoods(0)),
    (GamePhase.CONSTRUCTION, Produce(0)),
    (GamePhase.CONSTRUCTION, Transport(0, Good.WOOD, 1, FOREST, MINE)),
    (GamePhase.CONSTRUCTION, HaulGoods(0, P(1, 0), ())),
    (GamePhase.TRANSPORTATION, BuildTrails(0, (trail(1, 0, "NS"),), (pay(FOREST, wood=1),))),
    (GamePhase.TRANSPORTATION, Produce(0)),
    (GamePhase.TRANSPORTATION, Pass(0)),
])
def test_acting_in_the_wrong_phase_is_refused(phase, action) -> None:
    state = with_town(at(new_game(), phase), 0, farm())
    assert refusals(state, action) == [(Reason.WRONG_PHASE, ROUND_RULE, "/action/action")]


# -- transportation and processing -----------------------------------------------------

def test_in_rounds_1_to_3_the_processing_run_ends_the_players_round() -> None:
    state = at(new_game(), GamePhase.TRANSPORTATION, 2)
    state = with_town(state, 0, parse_town(KULY["town"]))
    state = play(state, ProcessGoods(0))
    assert state.players[0].done and state.phase is GamePhase.TRANSPORTATION
    move = Transport(0, Good.COAL, 2, P(1, 1), P(1, 3))
    assert refusals(state, move) == [(Reason.ALREADY_DONE, ROUND_RULE, "/action/player")]
    assert refusals(state, ProcessGoods(0)) == [
        (Reason.ALREADY_DONE, ROUND_RULE, "/action/player")]


@pytest.mark.parametrize("round_number", [1, 2, 3])
def test_end_round_before_round_4_is_refused(round_number) -> None:
    state = at(new_game(), GamePhase.TRANSPORTATION, round_number)
    assert refusals(state, EndRound(0)) == [
        (Reason.FINAL_ROUND_ONLY, "FF-R15", "/action/action")]
    assert EndRound(0) not in GAME.legal_moves(state)


def test_a_hut_hauls_only_before_the_phases_first_transport() -> None:
    state = with_town(at(new_game(), GamePhase.TRANSPORTATION), 0,
                      farm(b(1, 1, "haulers_hut"), t(1, 0, "NS"), b(2, 0, "charcoal_kiln")))
    haul = HaulGoods(0, P(1, 1), (Pick(Good.STONE, 1, MINE),))
    assert GAME.validate(state, haul).legal
    state = play(state, Transport(0, Good.WOOD, 1, FOREST, P(2, 0)))
    assert refusals(state, haul) == [(Reason.HAUL_AFTER_TRANSPORT, "FF-R17", "/action/to")]


def test_in_the_final_round_each_run_starts_a_new_phase_in_which_a_hut_hauls_again() -> None:
    state = with_town(at(new_game(), GamePhase.TRANSPORTATION, 4), 0,
                      farm(b(1, 1, "haulers_hut"), t(1, 0, "NS"), b(2, 0, "charcoal_kiln")))
    haul = HaulGoods(0, P(1, 1), (Pick(Good.STONE, 1, MINE),))
    state = play(state, haul, Transport(0, Good.WOOD, 1, FOREST, P(2, 0)))
    assert [r[0] for r in refusals(state, haul)] == [Reason.HAUL_AFTER_TRANSPORT,
                                                     Reason.ALREADY_HAULED]
    state = play(state, ProcessGoods(0), haul)
    assert state.players[0].town.goods_at(P(1, 1)) == Goods(stone=2)


def test_the_final_round_alternates_transports_and_processing_runs() -> None:
    """FF-R15: in round 4 a transport may follow a run; the round ends after one."""
    state = with_town(at(new_game(), GamePhase.TRANSPORTATION, 4), 0,
                      parse_town(KULY["town"]))
    assert refusals(state, EndRound(0)) == [(Reason.NO_PROCESSING_YET, "FF-R15", "/action")]
    state = play(state, ProcessGoods(0))  # nothing to convert yet
    assert state.players[0].score == 0 and not state.players[0].done
    assert EndRound(0) in GAME.legal_moves(state)
    state = play(state, Transport(0, Good.COAL, 2, P(1, 1), P(1, 3)), ProcessGoods(0))
    assert state.players[0].score == 14 and state.players[0].runs == 2
    state = play(state, EndRound(0))
    assert state.players[0].done and state.phase is GamePhase.TRANSPORTATION
    assert refusals(state, ProcessGoods(0)) == [
        (Reason.ALREADY_DONE, ROUND_RULE, "/action/player")]


# -- rounds ----------------------------------------------------------------------------

def test_the_start_player_piece_moves_one_seat_clockwise_each_round() -> None:
    state = new_game(3, start=2)
    starts = []
    for _ in range(4):
        if GAME.turn(state).expected == "draw_tiles":
            state = play(state, DrawTiles(B_TILES))
        starts.append(state.start_player)
        assert (GAME.turn(state).player, GAME.turn(state).expected) == (
            state.start_player, "produce")
        first = play(state, *(Produce(seat) for seat in range(3)))
        assert GAME.turn(first).player == state.start_player  # construction starts there
        state = finish_round(state)
    assert starts == [2, 0, 1, 2]
    assert state.phase is GamePhase.GAME_OVER


def test_after_round_2_the_a_tiles_go_back_and_the_board_waits_for_b_tiles() -> None:
    state = new_game(3, a_tiles=("sheepfold", "industrial_farm", "scrapyard", "sheepfold",
                                 "allotment", "woolmill", "lambing_shed", "granary"))
    assert state.board.stacks.A == 31 - 8
    c_spaces = state.board.c_spaces
    state = finish_round(finish_round(state))
    assert (state.round, state.phase, state.start_player) == (3, GamePhase.PRODUCTION, 2)
    assert state.board.offer == (None,) * 7
    assert state.board.stacks.A == 31  # the stacked Sheepfold went back too
    assert state.board.c_spaces == c_spaces
    turn = GAME.turn(state)
    assert (turn.player, turn.expected) == (None, "draw_tiles")
    assert GAME.legal_moves(state) == ()
    assert refusals(state, Produce(2)) == [
        (Reason.AWAITING_DRAWN_TILES, "FF-R13", "/action")]
    assert refusals(state, DrawTiles(("barn",))) == [
        (Reason.WRONG_TIER, "FF-R13", "/action/tiles/0")]
    state = play(state, DrawTiles(B_TILES))
    assert state.board.offer[0] == Space("fountain", 2)
    assert [space and space.building for space in state.board.offer] == [
        "fountain", "baths", "brewery", "emporium", "guildhall", "bakehouse", "discount_store"]
    assert state.board.stacks.B == 35 - 8
    assert (GAME.turn(state).player, GAME.turn(state).expected) == (2, "produce")


def test_a_round_3_board_offers_b_tiles_to_build() -> None:
    state = play(finish_round(finish_round(new_game(3))), DrawTiles(B_TILES))
    state = play(state, *(Produce(seat) for seat in range(3)))
    seat = state.current_player
    cost = (pay(FOREST, wood=2), pay(MINE, stone=1))
    after = play(state, BuildBuilding(seat, "fountain", P(1, 0), cost))
    assert after.players[seat].score == 6
    assert after.board.offer[0] == Space("fountain", 1)
    assert refusals(state, BuildBuilding(seat, "sheepfold", P(1, 0), SHEEPFOLD_COST)) == [
        (Reason.NOT_ON_OFFER, "FF-RULEBOOK-CONSTRUCT-A-BUILDING", "/action/building")]


def test_acting_after_the_game_ended_is_refused() -> None:
    state = new_game()
    for _ in range(4):
        if GAME.turn(state).expected == "draw_tiles":
            state = play(state, DrawTiles(B_TILES[1:7]))
        state = finish_round(state)
    assert state.phase is GamePhase.GAME_OVER and state.round == 4
    assert GAME.turn(state).expected is None and GAME.legal_moves(state) == ()
    for action in (Produce(0), Pass(1), ProcessGoods(0), EndRound(1), DrawTiles(("barn",))):
        assert refusals(state, action) == [(Reason.GAME_OVER, ROUND_RULE, "/action")]


def test_standings_at_the_end_break_a_tie_on_points_by_fewest_goods() -> None:
    """FF-R16: both players end on 0 points; Ann's Sheepfold keeps 2 more goods."""
    state = play(produced(2), BuildBuilding(0, "sheepfold", P(1, 0), SHEEPFOLD_COST),
                 DrawTiles(("barn",)))
    state = finish_round(state)
    assert GAME.standings(state) is None
    for _ in range(3):
        if GAME.turn(state).expected == "draw_tiles":
            state = play(state, DrawTiles(B_TILES[1:7]))
        state = finish_round(state)
    ranking = GAME.standings(state)
    assert ranking is not None
    assert [(s.name, s.place, s.score.goods_remaining) for s in ranking.standings] == [
        ("Bob", 1, 8), ("Ann", 2, 10)]


@pytest.mark.parametrize("total, reached", [
    (0, ()), (59, ()), (60, (60,)), (79, (60,)), (80, (60, 80)), (81, (60, 80)),
    (119, (60, 80, 100)), (120, (60, 80, 100, 120)), (300, (60, 80, 100, 120))])
def test_a_solo_total_reaches_each_threshold_it_is_at_least(total: int,
                                                            reached: tuple[int, ...]) -> None:
    """FF-R20: Food Festival's thresholds 60, 80, 100 and 120; exactly 80 reaches 80."""
    assert solo_outcome(3, total) == SoloOutcome(3, "Food Festival", (60, 80, 100, 120),
                                                 reached)


def test_every_solo_setup_is_measured_by_its_own_name_and_thresholds() -> None:
    for number, setup in SOLO_SETUPS.items():
        outcome = solo_outcome(number, 100)
        assert (outcome.setup, outcome.name, outcome.thresholds) == (
            number, setup.name, setup.thresholds)
        assert outcome.reached == tuple(t for t in setup.thresholds if t <= 100)

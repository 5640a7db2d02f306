"""Foxglove Farm's four rounds (farm_game.GAME) against the rulebook's examples, the
transport rules inside the game, check_state on hand-built states, properties of random
games, and what GAME.validate must refuse as malformed.

Construction is in test_game_construction.py, turns, phases and rounds in
test_game_rounds.py; the helpers in game_states.py.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import parse_move, parse_town
from tabletop_rules.foxglove_farm.central_board import Space, StacksLeft
from tabletop_rules.foxglove_farm.construction import (
    TRAIL_SIDES,
    TrailWork,
    pay_from,
    trail_payment,
)
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_checks import check_action, check_state
from tabletop_rules.foxglove_farm.game_state import (
    BuildBuilding,
    BuildTrails,
    EndRound,
    GamePhase,
    GameState,
    HaulGoods,
    Pass,
    ProcessGoods,
    Produce,
    Transport,
)
from tabletop_rules.foxglove_farm.model import (
    SIDES,
    Side,
    BuildingTile,
    Good,
    Goods,
    Town,
    TrailTile,
    Variant,
)
from tabletop_rules.foxglove_farm.effects import Gain
from tabletop_rules.foxglove_farm.effects import Phase as EffectPhase
from tabletop_rules.foxglove_farm.production import MAX_GAIN_OUTCOMES, gain_outcomes
from tabletop_rules.foxglove_farm.reasons import Reason
from tabletop_rules.foxglove_farm.transport import Pick
from tabletop_rules.game import replay
from tabletop_rules.problems import InvalidInputError

from .game_simulator import play_random_game
from .game_states import (
    FOREST,
    MINE,
    SHEEPFOLD_COST,
    P,
    at,
    farm,
    new_game,
    pay,
    play,
    refusals,
    with_town,
)
from .towns import b, load, t

KULY = load("kuly_transport_and_processing.json")
KILN, BUTCHER, LAMBING_SHED, RANCH = P(1, 1), P(1, 3), P(2, 1), P(2, 3)


def kuly_transports(seat: int = 0) -> list[Transport]:
    """The example's moves A, B and C as the game's actions."""
    moves = [parse_move(step["move"]) for step in KULY["transportation"]]
    return [Transport(seat, m.good, m.count, m.origin, m.destination) for m in moves]


def kuly_game(round_number: int) -> GameState:
    """Kuly (seat 0) and Bob as the transportation phase of ``round_number`` begins."""
    state = with_town(at(new_game(), GamePhase.TRANSPORTATION, round_number), 0,
                      parse_town(KULY["town"]))
    return replace(state, players=(replace(state.players[0], name="Kuly"), state.players[1]))


# -- the rulebook's examples -----------------------------------------------------------

def test_kuly_transport_and_processing_example_in_a_round_of_the_game() -> None:
    """A, B, C, then the processing run: D gives 3 coal, E 14 points; the run ends Kuly's
    round while Bob still acts, and the coal stays for the next round."""
    state = kuly_game(2)
    kuly = state.players[0].town
    assert (kuly.goods_at(KILN), kuly.goods_at(FOREST), kuly.goods_at(BUTCHER),
            kuly.goods_at(LAMBING_SHED)) == (Goods(coal=2), Goods(wood=3), Goods(sheep=2),
                                             Goods(sheep=1))
    for step, transport in zip(KULY["transportation"], kuly_transports()):
        state = play(state, transport)
        town = state.players[0].town
        for building, goods in step["after"].items():
            [tile] = [x for x in town.buildings if x.building.id == building]
            assert tile.goods == Goods.of(goods), step["step"]
    state = play(state, ProcessGoods(0))
    kuly = state.players[0].town
    assert kuly.goods_at(KILN) == Goods(coal=3)  # D: 3 wood became 3 coal
    assert kuly.goods_at(BUTCHER) == Goods()  # E: two pairs of 1 sheep and 1 coal
    assert kuly.goods_at(RANCH) == Goods(sheep=1)  # F: nothing until the game's end
    assert state.players[0].score == 14
    assert state.players[0].done and state.phase is GamePhase.TRANSPORTATION
    assert GAME.turn(state).player == 1
    state = play(state, ProcessGoods(1))
    assert (state.round, state.phase) == (3, GamePhase.PRODUCTION)
    assert state.players[0].town.goods_at(KILN) == Goods(coal=3)
    assert state.players[0].score == 14


def test_kuly_example_in_the_final_round_and_the_ranch_at_the_game_end() -> None:
    state = play(kuly_game(4), *kuly_transports(), ProcessGoods(0), EndRound(0))
    assert GAME.standings(state) is None  # Bob has not ended the round yet
    state = play(state, ProcessGoods(1), EndRound(1))
    assert state.phase is GamePhase.GAME_OVER and GAME.turn(state).expected is None
    ranking = GAME.standings(state)
    assert ranking is not None
    kuly = next(s for s in ranking.standings if s.name == "Kuly")
    assert kuly.place == 1
    assert kuly.score.score_track == KULY["processing"]["points"] == 14
    [ranch] = kuly.score.end_game
    assert (ranch.building, ranch.points, ranch.rule) == ("ranch", 3, "FF-R7")
    assert kuly.score.total == 17


def test_kuly_step_b_before_step_a_is_refused_for_want_of_slots() -> None:
    assert refusals(kuly_game(1), kuly_transports()[1]) == [
        (Reason.NOT_ENOUGH_FREE_SLOTS, "FF-R3", "/action/to")]


def test_sheepfold_example_paid_with_1_wood_and_1_stone_gains_2_sheep() -> None:
    state = at(play(new_game(), Produce(0), Produce(1)), GamePhase.CONSTRUCTION)
    assert state.players[0].town.goods_at(FOREST) == Goods(wood=5)
    after = play(state, BuildBuilding(0, "sheepfold", P(1, 0), SHEEPFOLD_COST))
    town = after.players[0].town
    assert town.goods_at(P(1, 0)) == Goods(sheep=2)
    assert town.tiles[P(1, 0)] == BuildingTile(P(1, 0), town.catalog["sheepfold"],
                                               Goods(sheep=2))
    assert (town.goods_at(FOREST), town.goods_at(MINE)) == (Goods(wood=4), Goods(stone=2))
    assert after.players[1].town.goods_at(FOREST) == Goods(wood=5)  # Bob pays nothing


def test_starting_tile_produces_5_wood_and_3_stone_each_production_phase() -> None:
    state = play(new_game(), Produce(0))
    town = state.players[0].town
    assert (town.goods_at(FOREST), town.goods_at(MINE)) == (Goods(wood=5), Goods(stone=3))
    assert state.players[1].town.goods_at(FOREST) == Goods()  # Bob has not produced yet
    spent = with_town(state, 1, farm(wood=1, stone=0))
    bob = play(spent, Produce(1)).players[1].town
    assert (bob.goods_at(FOREST), bob.goods_at(MINE)) == (Goods(wood=5), Goods(stone=3))


PRODUCTION_TOWN = farm(b(1, 0, "industrial_farm", wheat=1), b(1, 1, "scrapyard", stone=1),
                       b(-1, 0, "allotment", wheat=1), b(-1, 1, "woolmill", sheep=2),
                       wood=3, stone=0, score_track=5)


def produced(*choices: tuple[P, Goods]) -> Town:
    state = with_town(new_game(), 0, PRODUCTION_TOWN)
    return play(state, Produce(0, choices)).players[0].town


def test_production_goes_only_on_free_slots() -> None:
    """Industrial Farm: 2 free slots, 2 wheat; Allotment: no free slot, nothing; the
    Forest holding 3 of its 5 takes 2 of its 5 wood (FF-R5)."""
    town = produced()
    assert town.goods_at(P(1, 0)) == Goods(wheat=3)
    assert town.goods_at(P(-1, 0)) == Goods(wheat=1)
    assert town.goods_at(FOREST) == Goods(wood=5)
    assert town.goods_at(MINE) == Goods(stone=3)


def test_scrapyard_with_one_free_slot_takes_wood_or_stone_as_the_player_chooses() -> None:
    assert produced().goods_at(P(1, 1)) == Goods(wood=1, stone=1)  # the default: wood
    assert produced((P(1, 1), Goods(stone=2))).goods_at(P(1, 1)) == Goods(stone=2)
    state = with_town(new_game(), 0, PRODUCTION_TOWN)
    both = Produce(0, ((P(1, 1), Goods(wood=1, stone=2)),))  # 1 free slot, 2 goods
    assert refusals(state, both) == [
        (Reason.NOT_A_PRODUCTION_CHOICE, "FF-R5", "/action/choices/0")]


def test_woolmill_gives_2_points_per_sheep_without_spending_them() -> None:
    town = produced()
    assert town.goods_at(P(-1, 1)) == Goods(sheep=2)
    assert town.score_track == 5 + 4


# -- transports inside the game --------------------------------------------------------

# Industrial Farm - trail - Forest - trail - Bakery: wheat passes through the Forest.
WHEAT_ROAD = (b(0, -2, "industrial_farm", wheat=3), t(0, -1, "EW"), t(-1, 0, "NS"))


def transporting(bakery: dict, seat: int = 0, expert: tuple[int, ...] = ()) -> GameState:
    state = at(new_game(expert=expert), GamePhase.TRANSPORTATION)
    variant = "expert" if seat in expert else "standard"
    return with_town(state, seat, farm(*WHEAT_ROAD, bakery, variant=variant))


def test_a_transport_to_a_building_that_does_not_depict_the_good_is_refused() -> None:
    state = transporting(b(-2, 0, "bakery"))
    assert refusals(state, Transport(0, Good.WOOD, 1, FOREST, P(-2, 0))) == [
        (Reason.DESTINATION_DOES_NOT_DEPICT_GOOD, "FF-R3", "/action/to")]
    assert GAME.validate(state, Transport(0, Good.WHEAT, 1, P(0, -2), P(-2, 0))).legal


def test_a_transport_to_a_full_building_is_refused() -> None:
    state = transporting(b(-2, 0, "bakery", wheat=3, coal=1))  # 4 slots, all taken
    assert refusals(state, Transport(0, Good.WHEAT, 1, P(0, -2), P(-2, 0))) == [
        (Reason.NOT_ENOUGH_FREE_SLOTS, "FF-R3", "/action/to")]


def test_the_expert_variant_is_the_players_own_and_bars_passing_through_a_building() -> None:
    """The rulebook's expert example: wheat cannot reach the Bakery via the Forest."""
    move = Transport(1, Good.WHEAT, 2, P(0, -2), P(-2, 0))
    assert [p.variant for p in new_game(expert=(1,)).players] == [Variant.STANDARD,
                                                                  Variant.EXPERT]
    expert = transporting(b(-2, 0, "bakery"), seat=1, expert=(1,))
    assert refusals(expert, move) == [(Reason.EXPERT_ROUTE_BLOCKED, "FF-R2", "/action")]
    standard = transporting(b(-2, 0, "bakery"), seat=1)
    after = play(standard, move)  # through the Forest, full of wood (FF-R2, FF-R3)
    assert after.players[1].town.goods_at(P(-2, 0)) == Goods(wheat=2)
    assert after.players[1].town.goods_at(P(0, -2)) == Goods(wheat=1)


def test_adjacent_forest_and_mine_are_not_connected() -> None:
    state = with_town(at(new_game(), GamePhase.TRANSPORTATION), 0,
                      farm(b(1, 1, "charcoal_kiln"), t(1, 0, "NE")))
    assert GAME.validate(state, Transport(0, Good.WOOD, 1, FOREST, P(1, 1))).legal
    assert [r[0] for r in refusals(state, Transport(0, Good.STONE, 1, MINE, FOREST))] == [
        Reason.DESTINATION_DOES_NOT_DEPICT_GOOD, Reason.NO_ROUTE]


def test_a_hut_hauls_before_the_first_transport_of_the_phase_ignoring_routes() -> None:
    state = with_town(at(new_game(), GamePhase.TRANSPORTATION), 0,
                      farm(b(1, 1, "haulers_hut"), b(1, 0, "charcoal_kiln"), t(2, 0, "NS")))
    haul = HaulGoods(0, P(1, 1), (Pick(Good.STONE, 2, MINE), Pick(Good.WOOD, 2, FOREST)))
    after = play(state, haul)
    assert after.players[0].town.goods_at(P(1, 1)) == Goods(wood=2, stone=2)
    assert [r[:2] for r in refusals(after, haul)][0] == (Reason.ALREADY_HAULED, "FF-R17")


# -- check_state -----------------------------------------------------------------------

def test_check_state_lists_every_problem_of_a_hand_built_state_with_its_path() -> None:
    start = new_game()
    ann = replace(start.players[0], passed=True, runs=2, hauled=frozenset({FOREST}))
    bob_town = start.players[1].town
    catalog = bob_town.catalog
    misread = Town({**bob_town.tiles, P(1, 0): BuildingTile(P(1, 0), catalog["sheepfold"],
                                                             Goods(wheat=1, sheep=2))},
                   catalog, bob_town.variant, -3)
    board = replace(start.board, offer=(Space("fountain"), Space("sheepfold", 0),
                                        Space("sheepfold"), None, None, None),
                    stacks=StacksLeft(40, 35, -1))
    state = replace(at(start, GamePhase.CONSTRUCTION), rules_version=9, start_player=4,
                    players=(ann, replace(start.players[1], town=misread)), board=board)
    assert [p.pointer for p in check_state(state)] == [
        "/rules_version",
        "/players/1/town/score_track",
        "/players/1/town/tiles/2/goods/wheat",  # a Sheepfold holds only sheep (FF-R19)
        "/players/1/town/tiles/2/goods",  # 3 goods on 2 slots
        "/start_player",
        "/players/0",  # runs outside the transportation phase
        "/players/0/hauled",  # the Forest is no Hauler's Hut
        "/current_player",  # Ann's turn, but Ann passed
        "/board/offer/0/building",  # a B tile in round 1
        "/board/offer/1/count",
        "/board/offer/2/building",  # identical tiles stack on one space
        "/board/stacks/A",
        "/board/stacks/C",
    ]


@pytest.mark.parametrize("change, pointer, words", [
    (dict(round=5), "/round", "from 1 to 4"),
    (dict(phase=GamePhase.GAME_OVER, round=2), "/phase", "only after round 4"),
    (dict(catalog_version="builtin-000000000000"), "/catalog_version", "replay its log"),
    (dict(round=3), "/board/offer/0/building", "not a tile of tier B"),
    (dict(solo=3), "/solo", "one player"),
])
def test_check_state_names_the_part_that_is_impossible(change, pointer, words) -> None:
    problems = check_state(replace(new_game(), **change))
    assert pointer in [p.pointer for p in problems]
    assert words in next(p.message for p in problems if p.pointer == pointer)


def test_check_state_reads_a_passed_player_outside_construction_and_a_short_board() -> None:
    start = new_game()
    state = replace(start, players=(replace(start.players[0], passed=True), start.players[1]),
                    board=replace(start.board, offer=start.board.offer[:5]))
    assert [p.pointer for p in check_state(state)] == ["/players/0/passed", "/board/offer"]


@pytest.mark.parametrize("board", [
    dict(stacks=StacksLeft(31, 35, 20)),  # 6 A tiles on offer and 31 still in the stack
    dict(c_spaces=(Space("butcher", 30), Space("bakery"), Space("ranch"), Space("grocer"))),
], ids=["37 A tiles", "30 Butchers"])
def test_check_state_refuses_more_tiles_than_the_box_holds(board) -> None:
    start = new_game()
    assert check_state(replace(start, board=replace(start.board, **board))) != []


def test_check_state_judges_the_towns_even_when_the_round_cannot_be() -> None:
    start = new_game()
    town = replace(start.players[1].town, score_track=-1)
    state = replace(start, round=7, players=(start.players[0], replace(start.players[1],
                                                                       town=town)))
    assert [p.pointer for p in check_state(state)] == ["/players/1/town/score_track", "/round"]


@pytest.mark.parametrize("phase", [GamePhase.PRODUCTION, GamePhase.TRANSPORTATION])
def test_a_simultaneous_phase_every_player_finished_is_not_a_state(phase) -> None:
    """It ends with the last player's action, so no such state is answered; a transcribed
    one is refused, not left with no one to act."""
    start = at(new_game(), phase)
    state = replace(start, players=tuple(replace(p, done=True) for p in start.players))
    assert [p.pointer for p in check_state(state)] == ["/phase"]


def test_malformed_trail_and_list_lengths_are_named_where_the_action_writes_them() -> None:
    state = at(new_game(), GamePhase.CONSTRUCTION)
    far = BuildTrails(0, (TrailWork(P(5000, 0), frozenset({Side.N, Side.S})),), ())
    assert [p.pointer for p in check_action(state, far)] == ["/trails/0/position/row"]
    many = Produce(0, tuple((P(i, 0), Goods()) for i in range(121)))
    assert [p.pointer for p in check_action(state, many)] == ["/choices"]
    twice = Produce(0, ((FOREST, Goods(wood=5)), (FOREST, Goods(wood=5))))
    assert [p.pointer for p in check_action(state, twice)] == ["/choices/1"]


def test_a_request_building_with_huge_gains_is_weighed_in_bounded_outcomes() -> None:
    """A hostile catalog tile (30 slots, 20 of each good gained ten times over) would leave
    tens of thousands of holdings; the referee weighs at most MAX_GAIN_OUTCOMES, the
    default (filled in contract order) first."""
    bundle = Goods(20, 20, 20, 20, 20)
    outcomes = gain_outcomes(Goods(), 30, [Gain(EffectPhase.PRODUCTION, (bundle,))] * 10)
    assert 1 <= len(outcomes) <= MAX_GAIN_OUTCOMES
    assert outcomes[0].goods == Goods(wood=20, stone=10)
    assert len(gain_outcomes(Goods(), 30, [Gain(EffectPhase.PRODUCTION, (bundle,))])) \
        == MAX_GAIN_OUTCOMES


# -- properties of random games --------------------------------------------------------

GAME_SHAPES = st.one_of(st.tuples(st.integers(2, 4), st.none()),
                        st.tuples(st.just(1), st.integers(1, 6)))


def _played(seed: int, shape: tuple[int, int | None], composed: bool = False):
    players, solo = shape
    return play_random_game(random.Random(seed), players, solo, composed=composed)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=GAME_SHAPES)
def test_listed_moves_are_distinct_legal_and_complete(seed, shape) -> None:
    """Every listed move is distinct and legal, and every pass, building (default
    payment) and single trail that is legal is listed."""
    game = _played(seed, shape)
    rng = random.Random(seed)
    for i in sorted(rng.sample(range(len(game.moves)), min(6, len(game.moves)))):
        state = game.states[i]
        legal = list(GAME.legal_moves(state))
        assert len(set(legal)) == len(legal)
        for move in legal:
            assert GAME.validate(state, move).legal, move
        if GAME.turn(state).expected == "draw_tiles":
            assert legal == []
            continue
        if state.phase is GamePhase.CONSTRUCTION:
            for move in _constructions_to_try(state):
                assert GAME.validate(state, move).legal == (move in legal), move


def _constructions_to_try(state: GameState):
    """Passing, each documented building on the board at each free position, each trail
    at each free position and each upgrade, paid as the listing pays by default."""
    seat = state.current_player
    town = state.players[seat].town
    frontier = sorted({n for p in town.tiles for n in p.neighbours() if n not in town.tiles})
    yield Pass(seat)
    for space in (*state.board.offer, *state.board.c_spaces):
        building = state.catalog[space.building] if space else None
        if building is not None and building.documented:
            payment = pay_from(town, building.cost)
            if payment is not None:
                yield from (BuildBuilding(seat, building.id, p, payment) for p in frontier)
    for position in frontier:
        for open_sides in TRAIL_SIDES:
            goods = trail_payment(town, 2 if len(open_sides) == 3 else 1)
            payment = pay_from(town, goods) if goods is not None else None
            if payment is not None:
                yield BuildTrails(seat, (TrailWork(position, open_sides),), payment)
    for tile in town.trails:
        goods = trail_payment(town, 1)
        payment = pay_from(town, goods) if goods is not None else None
        for open_sides in (s for s in TRAIL_SIDES if len(s) == 3):
            if payment is not None and len(tile.sides) < 3:
                yield BuildTrails(seat, (TrailWork(tile.position, open_sides, True),),
                                  payment)


def connections(town: Town) -> set[tuple[P, P]]:
    """Neighbouring tiles open toward each other, at least one a trail (FF-R1): computed
    here from the tiles, not by the library's network."""
    def opened(tile) -> frozenset:
        return frozenset(SIDES) if isinstance(tile, BuildingTile) else tile.sides
    found = set()
    for position, tile in town.tiles.items():
        for side in opened(tile):
            other = town.tiles.get(position.neighbour(side))
            if (other is not None and side.opposite in opened(other)
                    and (isinstance(tile, TrailTile) or isinstance(other, TrailTile))):
                found.add((position, other.position))
    return found


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=GAME_SHAPES)
def test_composed_trail_actions_that_validate_keep_every_connection(seed, shape) -> None:
    """Several listed trails (new and upgrades) in one action, paid together: when the
    referee accepts it, every connection of the town before is still there (FF-R9,
    FF-R10), every tile is still there, and the goods paid are the trails' cost."""
    game = _played(seed, shape, composed=True)
    rng = random.Random(seed)
    building = [s for s in game.states if GAME.turn(s).expected == "construct"]
    for state in rng.sample(building, min(5, len(building))):
        seat = state.current_player
        town = state.players[seat].town
        singles = [m.trails[0] for m in GAME.legal_moves(state) if isinstance(m, BuildTrails)]
        for _ in range(6 if singles else 0):
            works = tuple(rng.choice(singles) for _ in range(rng.randint(2, 4)))
            cost = sum(w.cost for w in works)
            goods = trail_payment(town, cost)
            payment = pay_from(town, goods) if goods is not None else None
            if payment is None:
                continue
            verdict = GAME.validate(state, BuildTrails(seat, works, payment))
            if verdict.next_state is None:
                continue
            after = verdict.next_state.players[seat].town
            assert connections(town) <= connections(after)
            assert set(town.tiles) <= set(after.tiles)
            assert town.goods_remaining - after.goods_remaining == cost
            for work in works:
                assert isinstance(after.tiles[work.position], TrailTile)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=GAME_SHAPES)
def test_every_state_of_a_random_game_is_sound_and_its_log_replays(seed, shape) -> None:
    game = _played(seed, shape, composed=True)
    for state in game.states:
        assert check_state(state) == []
        for area in (state.board.offer, state.board.c_spaces):
            held = [space.building for space in area if space is not None]
            assert len(set(held)) == len(held)  # identical tiles share a space (FF-R13)
        if GAME.turn(state).expected not in ("draw_tiles", None):  # as many on offer as ever
            offer_tier = "A" if state.round <= 2 else "B"
            assert None not in state.board.offer or not state.board.stacks.of(offer_tier)
            assert None not in state.board.c_spaces or not state.board.stacks.C
        assert all(p.score >= 0 for p in state.players)  # FF-R18
        assert (GAME.standings(state) is None) == (state.phase is not GamePhase.GAME_OVER)
    result = replay(GAME, game.setup, game.moves)
    assert result.legal and result.state == game.states[-1]


# -- malformed actions -----------------------------------------------------------------
# The Game protocol: validate raises InvalidInputError for a malformed move (paths under
# the action), so apply() can never push one into a state.


def _construction() -> GameState:
    return with_town(at(new_game(), GamePhase.CONSTRUCTION), 0, farm())


def test_validate_refuses_a_seat_that_does_not_exist() -> None:
    with pytest.raises(InvalidInputError) as error:
        GAME.validate(new_game(), Produce(5))
    assert [p.pointer for p in error.value.problems] == ["/action/player"]


def test_validate_refuses_a_negative_seat() -> None:
    with pytest.raises(InvalidInputError):
        GAME.validate(new_game(), Produce(-1))


def test_validate_refuses_a_negative_transport_count() -> None:
    state = kuly_game(1)
    move = Transport(0, Good.COAL, -2, KILN, BUTCHER)
    assert [p.pointer for p in check_action(state, move)] == ["/count"]
    with pytest.raises(InvalidInputError):
        GAME.validate(state, move)


def test_validate_refuses_a_payment_of_negative_goods() -> None:
    move = BuildBuilding(0, "sheepfold", P(1, 0), (pay(FOREST, wood=2),
                                                   pay(MINE, wood=-1, stone=1)))
    with pytest.raises(InvalidInputError):
        GAME.validate(_construction(), move)


def test_validate_refuses_a_trail_action_without_trails() -> None:
    with pytest.raises(InvalidInputError):
        GAME.validate(_construction(), BuildTrails(0, (), ()))


def test_validate_refuses_a_building_the_catalog_does_not_have() -> None:
    with pytest.raises(InvalidInputError):
        GAME.validate(_construction(), BuildBuilding(0, "nope", P(1, 0), SHEEPFOLD_COST))


def test_a_haul_names_its_hut_the_same_way_when_malformed_and_when_illegal() -> None:
    state = with_town(at(new_game(), GamePhase.TRANSPORTATION), 0, farm())
    malformed = check_action(state, HaulGoods(0, P(5000, 0), ()))
    illegal = GAME.validate(state, HaulGoods(0, FOREST, (Pick(Good.STONE, 1, MINE),)))
    assert malformed[0].path[0] == illegal.violations[0].path[0]

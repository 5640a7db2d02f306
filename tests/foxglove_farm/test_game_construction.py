"""The construction phase of farm_game.GAME: building and paying (the rulebook's
"Construct a Building", FF-R9, FF-R11), trails built and upgraded (FF-R9 to FF-R11), the
central board refilled with the tiles the players drew (FF-R13), and the solo board's
sliding rows (FF-R20). Each refusal names its reason, its rule and the part of the
action that breaks it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop_rules.foxglove_farm.central_board import Space, Spaces, StacksLeft
from tabletop_rules.foxglove_farm.construction import free_positions, trail_payment
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_state import (
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    GamePhase,
    GameState,
    Pass,
    Produce,
    Seat,
    Setup,
    Transport,
)
from tabletop_rules.foxglove_farm.model import Good, Goods, TrailShape, TrailTile, Town
from tabletop_rules.foxglove_farm.reasons import Reason
from tabletop_rules.foxglove_farm.town import MAX_TILES
from tabletop_rules.problems import InvalidInputError

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
    sides,
    trail,
    with_town,
)
from .towns import b, t

BUILD_RULE = "FF-RULEBOOK-CONSTRUCT-A-BUILDING"


def constructing(*tiles: dict, wood: int = 5, stone: int = 3, players: int = 2,
                 a_tiles: tuple[str, ...] | None = None, round_number: int = 1) -> GameState:
    """Ann's construction turn, her town the starting tile (with ``wood`` and ``stone``)
    and ``tiles``."""
    state = at(new_game(players, a_tiles=a_tiles), GamePhase.CONSTRUCTION, round_number)
    return with_town(state, 0, farm(*tiles, wood=wood, stone=stone))


def ann(state: GameState) -> Town:
    return state.players[0].town


def offering(state: GameState, *buildings: str) -> GameState:
    """``state`` with ``buildings`` on the first spaces of the central board's offer."""
    offer = state.board.offer
    return replace(state, board=replace(state.board, offer=(
        *(Space(x) for x in buildings), *offer[len(buildings):])))


def names(spaces: Spaces) -> list[str | None]:
    """The building on each space of an area, None for an empty one."""
    return [space.building if space else None for space in spaces]


# -- buildings -------------------------------------------------------------------------

def test_building_without_the_goods_for_its_cost_is_refused() -> None:
    short = BuildBuilding(0, "sheepfold", P(1, 0), (pay(FOREST, wood=1),))
    assert refusals(constructing(), short) == [(Reason.WRONG_PAYMENT, "FF-R11", "/action/payment")]
    too_much = BuildBuilding(0, "sheepfold", P(1, 0), (pay(FOREST, wood=2), pay(MINE, stone=1)))
    assert refusals(constructing(), too_much) == [
        (Reason.WRONG_PAYMENT, "FF-R11", "/action/payment")]  # no change is given


def test_a_town_without_stone_lists_no_building_and_cannot_pay_with_stone_not_there() -> None:
    state = constructing(stone=0)
    assert not any(isinstance(m, BuildBuilding) for m in GAME.legal_moves(state))
    assert refusals(state, BuildBuilding(0, "sheepfold", P(1, 0), SHEEPFOLD_COST)) == [
        (Reason.PAYMENT_NOT_HELD, "FF-R11", "/action/payment/1/goods")]


def test_two_payments_from_one_building_add_up_against_what_it_holds() -> None:
    state = constructing(b(1, 1, "industrial_farm"), wood=1)
    twice = BuildBuilding(0, "sheepfold", P(1, 0), (pay(FOREST, wood=1), pay(MINE, stone=1),
                                                     pay(FOREST, wood=1)))
    assert (Reason.PAYMENT_NOT_HELD, "FF-R11", "/action/payment/2/goods") in refusals(state, twice)


def test_goods_are_paid_from_buildings_only_but_need_no_route() -> None:
    state = constructing(t(1, 0, "NS"))
    from_trail = BuildBuilding(0, "sheepfold", P(-1, 0), (pay(FOREST, wood=1),
                                                         pay(P(1, 0), stone=1)))
    assert refusals(state, from_trail) == [
        (Reason.PAYMENT_NOT_A_BUILDING, "FF-R11", "/action/payment/1/row"),
        (Reason.WRONG_PAYMENT, "FF-R11", "/action/payment")]
    # the Mine is connected to nothing, and still pays (FF-R11)
    assert GAME.validate(state, BuildBuilding(0, "sheepfold", P(-1, 0), SHEEPFOLD_COST)).legal


def test_a_building_touching_the_town_only_at_a_corner_is_refused() -> None:
    [refusal] = GAME.validate(constructing(), BuildBuilding(
        0, "sheepfold", P(1, 2), SHEEPFOLD_COST)).violations
    assert (refusal.reason, refusal.rule, refusal.pointer("action")) == (
        Reason.NOT_ADJACENT, "FF-R9", "/action/position")
    assert "corner" in refusal.message
    assert refusals(constructing(), BuildBuilding(0, "sheepfold", P(3, 0), SHEEPFOLD_COST)) == [
        (Reason.NOT_ADJACENT, "FF-R9", "/action/position")]


def test_a_building_beside_a_trail_is_placed_orthogonally_next_to_the_town() -> None:
    state = constructing(t(1, 0, "NS"))
    after = play(state, BuildBuilding(0, "sheepfold", P(2, 0), SHEEPFOLD_COST))
    tile = ann(after).building_at(P(2, 0))
    assert tile is not None and tile.building.id == "sheepfold"


def test_a_building_on_an_occupied_space_is_refused() -> None:
    state = constructing(t(1, 0, "NS"))
    for where in (P(1, 0), MINE):
        assert refusals(state, BuildBuilding(0, "sheepfold", where, SHEEPFOLD_COST)) == [
            (Reason.OCCUPIED, "FF-R9", "/action/position")]


@pytest.mark.parametrize("building", ["barn", "fountain", "marketplace"])
def test_a_building_not_on_the_central_board_is_refused(building) -> None:
    """The Barn is an A tile not drawn; the Fountain a B tile in round 1; the
    Marketplace a C tile not drawn."""
    state = constructing(wood=5, stone=3)
    assert refusals(state, BuildBuilding(0, building, P(1, 0), SHEEPFOLD_COST)) == [
        (Reason.NOT_ON_OFFER, BUILD_RULE, "/action/building")]


def test_place_and_payment_are_both_reported() -> None:
    state = constructing()
    assert refusals(state, BuildBuilding(0, "sheepfold", FOREST, (pay(FOREST, wood=1),))) == [
        (Reason.OCCUPIED, "FF-R9", "/action/position"),
        (Reason.WRONG_PAYMENT, "FF-R11", "/action/payment")]


def test_a_building_the_rulebook_does_not_describe_cannot_be_built() -> None:
    state = offering(constructing(), "windmill")
    assert refusals(state, BuildBuilding(0, "windmill", P(1, 0), SHEEPFOLD_COST)) == [
        (Reason.COST_UNKNOWN, BUILD_RULE, "/action/building")]
    assert not any(isinstance(m, BuildBuilding) and m.building == "windmill"
                   for m in GAME.legal_moves(state))


B_TILES = ("fountain", "emporium", "baths", "brewery", "bakehouse", "guildhall")
"""Round 3's offer of B tiles, all six spaces (FF-R13)."""


def test_immediate_effects_points_and_a_choice_of_goods() -> None:
    """Round 3's B tiles: the Fountain's 6 points, the Emporium's 5 of any one type."""
    state = offering(constructing(wood=5, stone=3, round_number=3), *B_TILES)
    cost = (pay(FOREST, wood=2), pay(MINE, stone=1))  # a B tile's provisional cost
    assert ann(play(state, BuildBuilding(0, "fountain", P(1, 0), cost))).score_track == 6
    emporium = play(state, BuildBuilding(0, "emporium", P(1, 0), cost, Goods(coal=5)))
    assert ann(emporium).goods_at(P(1, 0)) == Goods(coal=5)
    assert refusals(state, BuildBuilding(0, "emporium", P(1, 0), cost,
                                         Goods(coal=2, sheep=3))) == [
        (Reason.NOT_A_GAIN_CHOICE, BUILD_RULE, "/action/gain")]


def test_the_opening_turn_lists_a_pass_each_payable_building_and_each_trail() -> None:
    """The starting tile has 6 free neighbours; 5 wood and 3 stone pay any of the 10
    tiles on offer, and any of the 10 trail tiles (2 straight, 4 curved, 4 T)."""
    legal = GAME.legal_moves(constructing())
    assert sum(isinstance(m, Pass) for m in legal) == 1
    assert sum(isinstance(m, BuildBuilding) for m in legal) == 10 * 6
    assert sum(isinstance(m, BuildTrails) for m in legal) == 10 * 6
    assert len(set(legal)) == len(legal) == 121


# -- trails ----------------------------------------------------------------------------

@pytest.mark.parametrize("work, payment", [
    (trail(1, 0, "NS"), (pay(FOREST, wood=1),)),  # straight: 1 wood
    (trail(1, 0, "NE"), (pay(MINE, stone=1),)),  # curved: 1 stone
    (trail(1, 0, "NES"), (pay(FOREST, wood=2),)),  # T-junction: 2 wood
    (trail(1, 0, "NES"), (pay(MINE, stone=2),)),  # 2 stone
    (trail(1, 0, "NES"), (pay(FOREST, wood=1), pay(MINE, stone=1))),  # or 1 of each
])
def test_trail_costs(work, payment) -> None:
    state = constructing()
    after = ann(play(state, BuildTrails(0, (work,), payment)))
    assert after.tiles[P(1, 0)] == TrailTile(P(1, 0), work.sides)
    before = ann(state)  # the rest of the town as it was: its catalog, variant and score
    assert (after.catalog, after.variant, after.score_track) == (
        before.catalog, before.variant, before.score_track)
    assert ann(state).goods_remaining - after.goods_remaining == sum(p.goods.total
                                                                     for p in payment)


@pytest.mark.parametrize("work, payment", [
    (trail(1, 0, "NES"), (pay(FOREST, wood=1),)),  # a new T costs 2
    (trail(1, 0, "NS"), (pay(FOREST, wood=1), pay(MINE, stone=1))),  # a straight 1
    (trail(1, 0, "NS"), ()),
    (trail(1, 0, "NS"), (pay(P(-1, 0), wheat=1),)),  # only stone or wood
    (trail(1, 0, "NES"), (pay(FOREST, wood=1), pay(P(-1, 0), wheat=1))),
])
def test_a_trail_paid_with_the_wrong_goods_is_refused(work, payment) -> None:
    state = constructing(b(-1, 0, "industrial_farm", wheat=2))
    assert refusals(state, BuildTrails(0, (work,), payment)) == [
        (Reason.WRONG_PAYMENT, "FF-R11", "/action/payment")]


def test_an_upgrade_costs_1_and_turns_the_trail_to_a_t_junction() -> None:
    state = constructing(t(1, 0, "NS"))
    after = ann(play(state, BuildTrails(0, (trail(1, 0, "NES", upgrade=True),),
                                        (pay(MINE, stone=1),))))
    assert after.tiles[P(1, 0)] == TrailTile(P(1, 0), sides("NES"))
    assert after.trails[0].shape is TrailShape.T_JUNCTION
    assert after.goods_at(MINE) == Goods(stone=2)
    assert refusals(state, BuildTrails(0, (trail(1, 0, "NES", upgrade=True),),
                                       (pay(MINE, stone=2),))) == [
        (Reason.WRONG_PAYMENT, "FF-R11", "/action/payment")]


def test_several_trails_in_one_action_are_placed_in_order_and_paid_together() -> None:
    """Down from the Forest, round a corner to the Industrial Farm, then the first trail
    upgraded: 1 + 1 + 1 + 1 goods."""
    state = constructing(b(1, 1, "industrial_farm"))
    works = (trail(1, 0, "NS"), trail(2, 0, "NE"), trail(2, 1, "WN"),
             trail(1, 0, "NES", upgrade=True))
    after = play(state, BuildTrails(0, works, (pay(FOREST, wood=3), pay(MINE, stone=1))))
    town = ann(after)
    assert town.tiles[P(1, 0)] == TrailTile(P(1, 0), sides("NES"))
    assert town.tiles[P(2, 1)] == TrailTile(P(2, 1), sides("WN"))
    assert (town.goods_at(FOREST), town.goods_at(MINE)) == (Goods(wood=2), Goods(stone=2))
    assert town.network.path(FOREST, P(1, 1), Good.WHEAT) is not None  # now connected
    assert after.current_player == 1  # one action, one turn
    reordered = (works[1], works[0])
    assert refusals(state, BuildTrails(0, reordered, (pay(FOREST, wood=2),))) == [
        (Reason.NOT_ADJACENT, "FF-R9", "/action/trails/0/position")]


def test_a_trail_that_cuts_off_a_neighbouring_trail_is_refused() -> None:
    state = constructing(t(1, 0, "NS"))  # open south, toward (2, 0)
    assert refusals(state, BuildTrails(0, (trail(2, 0, "EW"),), (pay(FOREST, wood=1),))) == [
        (Reason.CUTS_OFF_TRAIL, "FF-R9", "/action/trails/0/sides")]
    assert GAME.validate(state, BuildTrails(0, (trail(2, 0, "NE"),),
                                            (pay(FOREST, wood=1),))).legal
    # a trail of the same action counts as a neighbour too
    works = (trail(1, 1, "NS"), trail(2, 1, "EW"))
    assert refusals(constructing(), BuildTrails(0, works, (pay(FOREST, wood=2),))) == [
        (Reason.CUTS_OFF_TRAIL, "FF-R9", "/action/trails/1/sides")]


def test_a_trail_may_be_closed_toward_a_building() -> None:
    """Only trails open toward the new one bind it (FF-R9); buildings do not."""
    state = constructing()
    assert GAME.validate(state, BuildTrails(0, (trail(1, 0, "EW"),),
                                            (pay(FOREST, wood=1),))).legal


def test_an_upgrade_whose_rotation_breaks_a_connection_is_refused() -> None:
    # (1, 0) joins the Forest (north) to the trail at (2, 0); its east side is unused
    state = constructing(t(1, 0, "NS"), t(2, 0, "NE"))
    broken = BuildTrails(0, (trail(1, 0, "ESW", upgrade=True),), (pay(FOREST, wood=1),))
    [refusal] = GAME.validate(state, broken).violations
    assert (refusal.reason, refusal.rule, refusal.pointer("action")) == (
        Reason.BREAKS_CONNECTION, "FF-R10", "/action/trails/0/sides")
    assert "N" in refusal.message
    assert refusals(state, BuildTrails(0, (trail(1, 0, "WNE", upgrade=True),),
                                       (pay(FOREST, wood=1),))) == [
        (Reason.BREAKS_CONNECTION, "FF-R10", "/action/trails/0/sides")]  # loses the south
    for kept in ("NES", "SWN"):
        assert GAME.validate(state, BuildTrails(0, (trail(1, 0, kept, upgrade=True),),
                                                (pay(FOREST, wood=1),))).legal


def test_an_upgrade_may_turn_away_from_a_side_that_was_not_connected() -> None:
    state = constructing(t(1, 0, "NS"))  # south leads nowhere
    assert GAME.validate(state, BuildTrails(0, (trail(1, 0, "WNE", upgrade=True),),
                                            (pay(FOREST, wood=1),))).legal


@pytest.mark.parametrize("tiles, work, reason, pointer", [
    ((), trail(0, 0, "NES", upgrade=True), Reason.NOT_A_TRAIL, "/action/trails/0/position"),
    ((t(1, 0, "NES"),), trail(1, 0, "NSW", upgrade=True), Reason.ALREADY_T_JUNCTION,
     "/action/trails/0/position"),
    ((t(1, 0, "NS"),), trail(1, 0, "NE", upgrade=True), Reason.NOT_A_T_JUNCTION,
     "/action/trails/0/sides"),
])
def test_what_cannot_be_upgraded(tiles, work, reason, pointer) -> None:
    state = constructing(*tiles)
    assert refusals(state, BuildTrails(0, (work,), (pay(FOREST, wood=1),))) == [
        (reason, "FF-R10", pointer)]


TOWN_OF_TRAILS = tuple(t(1 + i // 50, i % 50, "EW") for i in range(MAX_TILES - 2))
"""Trails that make the starting tile's town as large as the referee reads."""


def test_a_town_of_the_most_tiles_has_no_free_position_and_one_fewer_has() -> None:
    """Placements are listed only where one is allowed (FF-R9): none in a full town."""
    full = farm(*TOWN_OF_TRAILS).tiles
    assert len(full) == MAX_TILES and free_positions(full) == ()
    one_fewer = farm(*TOWN_OF_TRAILS[:-1]).tiles
    assert P(-1, 0) in free_positions(one_fewer)  # above the Forest


@pytest.mark.parametrize("wood, stone, count, default", [
    (5, 3, 2, Goods(wood=2)),  # wood first
    (1, 3, 2, Goods(wood=1, stone=1)),  # then stone
    (0, 2, 2, Goods(stone=2)),
    (1, 0, 2, None),  # too few: no default payment
    (0, 1, 2, None),
])
def test_a_trails_default_payment_is_wood_then_stone_or_none(wood, stone, count,
                                                             default) -> None:
    assert trail_payment(farm(wood=wood, stone=stone), count) == default


@pytest.mark.parametrize(("state", "action", "expected"), [
    (constructing(t(1, 0, "NS"), t(2, 0, "NS"), stone=1),
     BuildBuilding(0, "sheepfold", P(1, 0), (pay(P(2, 0), wood=1), pay(MINE, stone=2))), [
         (Reason.OCCUPIED, "FF-R9", "/action/position", {"row": 1, "col": 0}),
         (Reason.PAYMENT_NOT_A_BUILDING, "FF-R11", "/action/payment/0/row",
          {"row": 2, "col": 0}),
         (Reason.PAYMENT_NOT_HELD, "FF-R11", "/action/payment/1/goods",
          {"building": ("Mine", 0, 1), "held": ("1 stone",), "paid": ("2 stone",)}),
         (Reason.WRONG_PAYMENT, "FF-R11", "/action/payment",
          {"paying": "building", "building": "Sheepfold", "costs": ("1 wood", "1 stone"),
           "paid": ("2 stone",)})]),
    (constructing(), BuildBuilding(0, "sheepfold", P(1, 2), SHEEPFOLD_COST), [
        (Reason.NOT_ADJACENT, "FF-R9", "/action/position",
         {"touch": "corner", "row": 1, "col": 2})]),
    (constructing(), BuildBuilding(0, "sheepfold", P(3, 0), SHEEPFOLD_COST), [
        (Reason.NOT_ADJACENT, "FF-R9", "/action/position",
         {"touch": "none", "row": 3, "col": 0})]),
    (constructing(*TOWN_OF_TRAILS), BuildBuilding(0, "sheepfold", P(-1, 0), SHEEPFOLD_COST), [
        (Reason.TOWN_FULL, "FF-R9", "/action/position", {"limit": MAX_TILES})]),
    (offering(constructing(), "windmill"), BuildBuilding(0, "windmill", P(1, 0), SHEEPFOLD_COST),
     [(Reason.COST_UNKNOWN, BUILD_RULE, "/action/building", {"building": "Windmill"})]),
    (offering(constructing(round_number=3), *B_TILES),
     BuildBuilding(0, "emporium", P(1, 0), (pay(FOREST, wood=2), pay(MINE, stone=1)),
                   Goods(coal=2, sheep=3)), [
         (Reason.NOT_A_GAIN_CHOICE, BUILD_RULE, "/action/gain", {
             "asked": "goods", "building": "Emporium", "gain": ("2 coal", "3 sheep"),
             "choices": ("5 wood", "5 stone", "5 wheat", "5 coal", "5 sheep")})]),
    (offering(constructing(round_number=3), *B_TILES),
     BuildBuilding(0, "bakehouse", P(1, 0), (pay(FOREST, wood=2), pay(MINE, stone=1)),
                   Goods(wheat=1)), [
         (Reason.NOT_A_GAIN_CHOICE, BUILD_RULE, "/action/gain", {
             "asked": "goods", "building": "Bakehouse", "gain": ("1 wheat",),
             "choices": ("1 wheat+2 coal",)})]),
    # (2, 0) between a trail open south and a trail open west: a curve cuts off both
    (constructing(t(1, 0, "NS"), t(1, 1, "NS"), t(2, 1, "NW")),
     BuildTrails(0, (trail(2, 0, "SW"),), (pay(FOREST, wood=1),)), [
         (Reason.CUTS_OFF_TRAIL, "FF-R9", "/action/trails/0/sides",
          {"row": 2, "col": 0, "sides": ("N", "E")})]),
    (constructing(t(1, 0, "NS"), t(2, 0, "NE"), t(-1, 0, "NES")),
     BuildTrails(0, (trail(0, 1, "NES", upgrade=True), trail(1, 0, "ESW", upgrade=True),
                     trail(2, 0, "NE", upgrade=True), trail(-1, 0, "ESW", upgrade=True)),
                 (pay(FOREST, wood=1),)), [
         (Reason.NOT_A_TRAIL, "FF-R10", "/action/trails/0/position", {"row": 0, "col": 1}),
         (Reason.BREAKS_CONNECTION, "FF-R10", "/action/trails/1/sides",
          {"row": 1, "col": 0, "sides": ("N",)}),
         (Reason.NOT_A_T_JUNCTION, "FF-R10", "/action/trails/2/sides", {}),
         (Reason.ALREADY_T_JUNCTION, "FF-R10", "/action/trails/3/position",
          {"row": -1, "col": 0}),
         (Reason.WRONG_PAYMENT, "FF-R11", "/action/payment",
          {"paying": "trails", "cost": 4, "paid": ("1 wood",)})]),
], ids=["occupied and badly paid", "corner", "apart", "town full", "cost unknown",
        "not a gain choice", "not the gain's bundle", "cuts off trails", "upgrades"])
def test_each_violation_names_in_its_params_what_it_is_about(
        state: GameState, action: BuildBuilding | BuildTrails,
        expected: list[tuple[Reason, str, str, dict[str, object]]]) -> None:
    """An app words a violation itself from its code and params (tabletop_rules.messages),
    so each param must name the position, building, goods or sides the sentence is about;
    rows differ from columns and what is held from what is paid, so a swap shows. Its rule
    and pointer are read too: all a violation says."""
    violations = GAME.validate(state, action).violations
    assert [(v.reason, v.rule, v.pointer("action"), dict(v.message.params))
            for v in violations] == expected


# -- the central board -----------------------------------------------------------------

A_WITH_A_PAIR = ("sheepfold", "industrial_farm", "scrapyard", "sheepfold", "allotment",
                 "woolmill", "lambing_shed", "granary")
"""A 3-player board's 7 A spaces; the second Sheepfold stacks on the first (FF-R13)."""


def three_players() -> GameState:
    state = constructing(players=3, a_tiles=A_WITH_A_PAIR)
    return with_town(state, 1, farm())


def test_identical_tiles_drawn_at_setup_stack_and_drawing_goes_on() -> None:
    board = new_game(3, a_tiles=A_WITH_A_PAIR).board
    assert board.offer[0] == Space("sheepfold", 2)
    assert names(board.offer) == ["sheepfold", "industrial_farm", "scrapyard", "allotment",
                                  "woolmill", "lambing_shed", "granary"]
    assert board.stacks == StacksLeft(31 - 8, 35, 24 - 4)


def test_a_building_taken_from_a_stack_of_two_needs_no_draw() -> None:
    after = play(three_players(), BuildBuilding(0, "sheepfold", P(1, 0), SHEEPFOLD_COST))
    assert after.board.offer[0] == Space("sheepfold", 1)
    assert GAME.turn(after) == GAME.turn(play(three_players(), Pass(0)))
    assert GAME.turn(after).expected == "construct" and after.board.stacks.A == 23


def test_a_build_that_empties_a_space_waits_for_the_drawn_tiles() -> None:
    after = play(three_players(), BuildBuilding(0, "industrial_farm", P(1, 0), SHEEPFOLD_COST))
    assert after.board.offer[1] is None
    turn = GAME.turn(after)
    assert (turn.player, turn.expected) == (None, "draw_tiles")
    assert GAME.legal_moves(after) == ()
    assert refusals(after, Pass(1)) == [
        (Reason.AWAITING_DRAWN_TILES, "FF-R13", "/action")]
    # a Granary comes up and stacks on the Granary; the next tile fills the space
    drawn = play(after, DrawTiles(("granary", "coal_mine")))
    assert drawn.board.offer[1] == Space("coal_mine")
    assert drawn.board.offer[6] == Space("granary", 2)
    assert drawn.board.stacks.A == 23 - 2
    assert GAME.turn(drawn).player == 1 and GAME.turn(drawn).expected == "construct"


def test_a_build_from_the_c_spaces_is_refilled_from_the_c_stack() -> None:
    state = constructing()
    after = play(state, BuildBuilding(0, "bakery", P(1, 0), (pay(FOREST, wood=2),
                                                             pay(MINE, stone=2))))
    assert after.board.c_spaces[1] is None and GAME.turn(after).expected == "draw_tiles"
    assert refusals(after, DrawTiles(("barn",))) == [
        (Reason.WRONG_TIER, "FF-R13", "/action/tiles/0")]
    drawn = play(after, DrawTiles(("cafe",)))
    assert drawn.board.c_spaces[1] == Space("cafe") and drawn.board.stacks.C == 19


@pytest.mark.parametrize("tiles, reason, pointer", [
    (("bakery",), Reason.WRONG_TIER, "/action/tiles/0"),  # a C tile on an A space
    (("barn", "fountain"), Reason.WRONG_TIER, "/action/tiles/1"),  # a B tile in round 1
    ((), Reason.WRONG_DRAW, "/action/tiles"),  # the space is left empty
    (("granary",), Reason.WRONG_DRAW, "/action/tiles"),  # stacked: one more is drawn
    (("coal_mine", "barn"), Reason.WRONG_DRAW, "/action/tiles/1"),  # drawn after filling
])
def test_drawn_tiles_of_the_wrong_tier_or_count_are_refused(tiles, reason, pointer) -> None:
    after = play(three_players(), BuildBuilding(0, "industrial_farm", P(1, 0), SHEEPFOLD_COST))
    assert refusals(after, DrawTiles(tiles)) == [(reason, "FF-R13", pointer)]


def test_more_tiles_drawn_than_the_stack_holds_are_refused() -> None:
    after = play(three_players(), BuildBuilding(0, "industrial_farm", P(1, 0), SHEEPFOLD_COST))
    low = replace(after, board=replace(after.board, stacks=StacksLeft(1, 35, 20)))
    assert refusals(low, DrawTiles(("granary", "barn"))) == [
        (Reason.WRONG_DRAW, "FF-R13", "/action/tiles")]
    # the last tile of the stack stacks on the Granary: the space stays empty, the game goes on
    last = play(low, DrawTiles(("granary",)))
    assert last.board.offer[1] is None and last.board.stacks.A == 0
    assert GAME.turn(last).expected == "construct"


def test_drawing_when_no_space_waits_is_refused() -> None:
    assert refusals(three_players(), DrawTiles(("barn",))) == [
        (Reason.NO_TILES_TO_DRAW, "FF-R13", "/action/action")]


# -- solo (FF-R20) ---------------------------------------------------------------------

RESOURCEFUL_ARTISANS = 5


def solo(number: int = RESOURCEFUL_ARTISANS) -> GameState:
    return play(GAME.new_game(Setup((Seat("Sol"),), solo=number)), Produce(0))


def offer(state: GameState) -> list[str | None]:
    return names(state.board.offer)


def test_a_named_solo_setup_lays_out_its_tiles() -> None:
    state = solo()
    assert offer(state) == ["woolmill", "barn", "volcano", "coal_mine", "sheepfold", "paddock"]
    assert names(state.board.c_spaces) == ["ranch", "foundry", "butcher", "furniture_store"]
    assert state.board.stacks == StacksLeft(31 - 6, 35, 24 - 4)
    assert (state.phase, GAME.turn(state).player) == (GamePhase.CONSTRUCTION, 0)


def test_a_one_player_game_names_its_solo_setup() -> None:
    with pytest.raises(InvalidInputError) as error:
        GAME.new_game(Setup((Seat("Sol"),)))
    assert [p.pointer for p in error.value.problems] == ["/solo"]


def test_solo_a_construction_removes_the_leftmost_tile_of_each_row_and_slides_them() -> None:
    """Rows woolmill barn volcano / coal_mine sheepfold paddock; the Barn built: the
    Woolmill and the Coal Mine leave the game, the rest slide left, 3 tiles are drawn."""
    after = play(solo(), BuildBuilding(0, "barn", P(1, 0), SHEEPFOLD_COST))
    assert offer(after) == ["volcano", None, None, "sheepfold", "paddock", None]
    assert GAME.turn(after).expected == "draw_tiles"
    assert refusals(after, DrawTiles(("allotment", "granary"))) == [
        (Reason.WRONG_DRAW, "FF-R13", "/action/tiles")]
    drawn = play(after, DrawTiles(("allotment", "granary", "volcano", "woolmill")))
    assert offer(drawn) == ["volcano", "allotment", "granary", "sheepfold", "paddock",
                            "woolmill"]
    assert drawn.board.offer[0] == Space("volcano", 2)
    assert drawn.board.stacks.A == 25 - 4  # the removed tiles do not go back
    assert GAME.turn(drawn) == GAME.turn(solo())


def test_solo_building_the_leftmost_tile_removes_the_next_one() -> None:
    """The rulebook: "You will always remove 2 tiles"."""
    after = play(solo(), BuildBuilding(0, "woolmill", P(1, 0), SHEEPFOLD_COST))
    assert offer(after) == ["volcano", None, None, "sheepfold", "paddock", None]


def test_solo_a_stacked_leftmost_space_loses_one_tile() -> None:
    """Two Woolmills stacked on the leftmost space: one leaves the game, one stays."""
    start = solo()
    state = replace(start, board=replace(start.board, offer=(
        Space("woolmill", 2), *start.board.offer[1:])))
    after = play(state, BuildBuilding(0, "barn", P(1, 0), SHEEPFOLD_COST))
    assert after.board.offer == (Space("woolmill"), Space("volcano"), None,
                                 Space("sheepfold"), Space("paddock"), None)
    assert GAME.turn(after).expected == "draw_tiles"


def test_solo_a_c_tile_clears_the_c_rows_only() -> None:
    after = play(solo(), BuildBuilding(0, "butcher", P(1, 0), (pay(FOREST, wood=2),
                                                               pay(MINE, stone=2))))
    assert names(after.board.c_spaces) == ["foundry", None, None, None]
    assert offer(after) == offer(solo())


def test_solo_trails_remove_no_tile() -> None:
    after = play(solo(), BuildTrails(0, (trail(1, 0, "NS"),), (pay(FOREST, wood=1),)))
    assert after.board == solo().board and GAME.turn(after).player == 0


def test_solo_a_transport_in_construction_is_the_wrong_phase() -> None:
    assert refusals(solo(), Transport(0, Good.WOOD, 1, FOREST, MINE)) == [
        (Reason.WRONG_PHASE, "FF-RULEBOOK-ROUND-OVERVIEW", "/action/action")]

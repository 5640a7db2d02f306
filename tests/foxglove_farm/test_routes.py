"""Trail connections and routes, standard and expert (FF-R1 to FF-R3)."""

from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import (
    Good,
    Move,
    Position,
    Variant,
    apply_move,
    find_route,
    parse_town,
    reachable,
    run_processing,
)

from .towns import TRAIL_SHAPES, b, t, town, town_dicts

P = Position


def test_neighbouring_buildings_are_never_connected():
    # FF-R1: the Forest and Mine are neighbours, open on all sides, and not connected
    town_ = town(b(1, 0, "charcoal_kiln"))
    assert not town_.network.connected(P(0, 0), P(0, 1))
    assert not town_.network.connected(P(0, 0), P(1, 0))
    assert reachable(town_, P(0, 0), Good.WOOD) == {}


def test_a_trail_connects_only_where_it_is_open():
    # (1,0) is open E and W: not toward the Forest above it
    town_ = town(t(1, 0, "EW"), b(1, 1, "charcoal_kiln"))
    assert not town_.network.connected(P(0, 0), P(1, 0))
    assert town_.network.connected(P(1, 0), P(1, 1))
    assert find_route(town_, P(0, 0), P(1, 1), Good.WOOD) is None


def test_both_trails_must_be_open_on_the_shared_side():
    # (1,0) opens east toward (1,1), but (1,1) is open N-S only
    town_ = town(t(1, 0, "NE"), t(1, 1, "NS"), b(2, 1, "charcoal_kiln"))
    assert not town_.network.connected(P(1, 0), P(1, 1))
    assert find_route(town_, P(0, 0), P(2, 1), Good.WOOD) is None


def test_a_route_along_trails():
    town_ = town(t(1, 0, "NE"), t(1, 1, "WE"), b(1, 2, "charcoal_kiln"))
    assert find_route(town_, P(0, 0), P(1, 2), Good.WOOD) == (P(0, 0), P(1, 0), P(1, 1), P(1, 2))


def test_destinations_must_depict_the_good():
    # FF-R3: the Butcher depicts coal and sheep, not wood; the Market depicts every type
    town_ = town(t(1, 0, "NES"), b(1, 1, "butcher"), t(2, 0, "NE"), b(2, 1, "market"))
    assert set(reachable(town_, P(0, 0), Good.WOOD)) == {P(2, 1)}
    assert find_route(town_, P(0, 0), P(1, 1), Good.WOOD) is None
    assert town_.network.path(P(0, 0), P(1, 1), Good.WOOD) == (P(0, 0), P(1, 0), P(1, 1))


# Forest (0,0) - trail (1,0) - Butcher (2,0) - trail (3,0) - Charcoal Kiln (4,0)
THROUGH = [t(1, 0, "NS"), b(2, 0, "butcher"), t(3, 0, "NS"), b(4, 0, "charcoal_kiln")]


def test_standard_goods_pass_through_any_building():
    town_ = town(*THROUGH)
    assert find_route(town_, P(0, 0), P(4, 0), Good.WOOD) == (
        P(0, 0), P(1, 0), P(2, 0), P(3, 0), P(4, 0))


def test_expert_goods_pass_only_through_buildings_depicting_them():
    town_ = town(*THROUGH, variant="expert")
    assert town_.variant is Variant.EXPERT
    assert find_route(town_, P(0, 0), P(4, 0), Good.WOOD) is None  # the Butcher blocks wood
    # coal may pass through the Butcher, which depicts coal
    kiln_to_forest_side = town_.network.routes_from(P(4, 0), Good.COAL, Variant.EXPERT)
    assert P(2, 0) in kiln_to_forest_side


def test_expert_passes_through_a_depicting_building():
    tiles = [t(1, 0, "NS"), b(2, 0, "furniture_store"), t(3, 0, "NS"), b(4, 0, "charcoal_kiln")]
    assert find_route(town(*tiles, variant="expert"), P(0, 0), P(4, 0), Good.WOOD) is not None


def test_full_buildings_are_passed_through():
    tiles = [t(1, 0, "NS"), b(2, 0, "furniture_store", wood=2, sheep=2), t(3, 0, "NS"),
             b(4, 0, "charcoal_kiln")]
    assert find_route(town(*tiles, variant="expert"), P(0, 0), P(4, 0), Good.WOOD) is not None


def test_the_route_is_a_shortest_one():
    # to the Market at (2,1): a long way round on the west, and a short way east
    long_way = [t(0, -1, "ES"), t(1, -1, "NS"), t(2, -1, "NE"), t(2, 0, "WE")]
    short_way = [t(1, 0, "NE"), t(1, 1, "WS")]
    town_ = town(*long_way, *short_way, b(2, 1, "market"))
    assert find_route(town_, P(0, 0), P(2, 1), Good.WOOD) == (P(0, 0), P(1, 0), P(1, 1), P(2, 1))
    without_short_way = town(*long_way, b(2, 1, "market"))
    assert len(find_route(without_short_way, P(0, 0), P(2, 1), Good.WOOD)) == 6


def test_the_origin_is_not_a_destination():
    town_ = town(t(1, 0, "NE"), t(1, 1, "WN"))  # a loop back to the Mine, not the Forest
    assert P(0, 0) not in reachable(town_, P(0, 0), Good.WOOD)


def test_network_is_shared_by_derived_towns():
    town_ = town(*THROUGH)
    network = town_.network
    moved = town_.with_goods({P(0, 0): town_.goods_at(P(0, 0))})
    assert moved.network is network
    stocked = town(*THROUGH[:3], b(4, 0, "charcoal_kiln", wood=1))
    network = stocked.network
    assert run_processing(stocked).town.network is network
    assert apply_move(run_processing(stocked).town,
                      Move(Good.COAL, 1, P(4, 0), P(2, 0))).network is network


def test_routes_connect_consecutive_positions():
    town_ = town(*THROUGH)
    for destination, route in reachable(town_, P(4, 0), Good.COAL).items():
        assert route[0] == P(4, 0) and route[-1] == destination
        assert all(town_.network.connected(a, c) for a, c in zip(route, route[1:]))


# -- properties -----------------------------------------------------------------------

def _reach_sets(town_, variant):
    return {(tile.position, good): set(town_.network.routes_from(tile.position, good, variant))
            for tile in town_.buildings for good in Good}


@given(town_dicts(max_tiles=16, variant="standard"), st.data())
def test_adding_a_trail_never_shrinks_what_goods_reach(data, draw):
    before = parse_town(data)
    occupied = {(tile["row"], tile["col"]) for tile in data["tiles"]}
    frontier = sorted({(r + dr, c + dc) for (r, c) in occupied
                       for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))} - occupied)
    row, col = draw.draw(st.sampled_from(frontier))
    sides = "".join(draw.draw(st.sampled_from(TRAIL_SHAPES)))
    after = parse_town({**data, "tiles": [*data["tiles"], t(row, col, sides)]})
    old, new = _reach_sets(before, Variant.STANDARD), _reach_sets(after, Variant.STANDARD)
    assert all(old[key] <= new[key] for key in old)


@given(town_dicts(max_tiles=16))
def test_expert_reaches_no_more_than_standard(data):
    town_ = parse_town(data)
    standard, expert = _reach_sets(town_, Variant.STANDARD), _reach_sets(town_, Variant.EXPERT)
    assert all(expert[key] <= standard[key] for key in standard)


@given(town_dicts(max_tiles=16))
def test_expert_routes_pass_only_through_depicting_buildings(data):
    town_ = parse_town(data)
    for tile in town_.buildings:
        for good in Good:
            for route in town_.network.routes_from(tile.position, good, Variant.EXPERT).values():
                for step in route[1:-1]:
                    here = town_.building_at(step)
                    assert here is None or good in here.building.depicts


@given(town_dicts(max_tiles=16))
def test_connections_are_symmetric_and_never_between_buildings(data):
    town_ = parse_town(data)
    for position, linked in town_.network.links.items():
        for other in linked:
            assert position in town_.network.links[other]
            assert not (town_.building_at(position) and town_.building_at(other))

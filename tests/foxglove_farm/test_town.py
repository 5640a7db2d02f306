"""Reading a town from the contract's JSON: every problem found, with its path."""

from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import (
    BuildingTile,
    Good,
    Goods,
    Position,
    Side,
    TrailShape,
    Town,
    TrailTile,
    Variant,
    builtin_catalog,
    check_town,
    parse_town,
    town_to_dict,
)
from tabletop_rules.problems import InvalidInputError
from tabletop_rules.foxglove_farm.town import MAX_TILES, _check_tile, _sound

from .towns import b, t, town, town_data, town_dicts


def problems_of(data, **kwargs):
    with pytest.raises(InvalidInputError) as error:
        parse_town(data, **kwargs)
    return error.value.problems


def only_problem(data):
    (problem,) = problems_of(data)
    return problem


def test_the_contract_example_reads():
    data = {"variant": "standard", "score_track": 64, "tiles": [
        {"row": 0, "col": 0, "building": "forest", "goods": {"wood": 2}},
        {"row": 0, "col": 1, "building": "mine"},
        {"row": 1, "col": 0, "trail": ["N", "E"]},
        {"row": 1, "col": 1, "building": "ranch", "goods": {"sheep": 8}}], "catalog": {}}
    town_ = parse_town(data)
    assert town_.variant is Variant.STANDARD and town_.score_track == 64
    assert town_.goods_at(Position(0, 0)) == Goods(wood=2)
    assert town_.goods_at(Position(1, 1)).count(Good.SHEEP) == 8
    trail = town_.tile_at(Position(1, 0))
    assert isinstance(trail, TrailTile) and trail.sides == {Side.N, Side.E}
    assert trail.shape is TrailShape.CURVED
    assert town_.tile_count == 4 and town_.goods_remaining == 10


def test_defaults():
    town_ = parse_town({"tiles": town_data()["tiles"]})
    assert town_.variant is Variant.STANDARD and town_.score_track == 0


def test_starting_tile_counts_as_two_tiles():
    assert town().tile_count == 2


@given(town_dicts())
def test_a_town_round_trips_through_its_json_form(data):
    town_ = parse_town(data)
    again = parse_town(town_to_dict(town_))
    assert again == town_
    assert check_town(town_) == []


def test_request_definitions_are_written_back():
    data = town_data(b(1, 0, "windmill", wheat=1), catalog={"windmill": {
        "slots": 2, "effects": [{"kind": "gain", "when": "production", "goods": {"wheat": 1}}]}})
    out = town_to_dict(parse_town(data))
    assert set(out["catalog"]) == {"windmill"}
    assert parse_town(out) == parse_town(data)


# -- each problem ---------------------------------------------------------------------

def test_overlapping_tiles():
    problem = only_problem(town_data(t(1, 0, "NS"), b(1, 0, "ranch")))
    assert problem.path == ("tiles", 3) and "overlaps tile 2" in problem.message


def test_a_town_in_two_groups():
    problem = only_problem(town_data(t(1, 0, "NS"), t(5, 5, "EW"), t(5, 6, "EW")))
    assert problem.path == ("tiles", 3)
    assert "do not touch the rest of the town" in problem.message and "FF-R9" in problem.message


def test_diagonal_contact_does_not_join_a_town():
    problem = only_problem(town_data(t(1, 2, "NS")))
    assert problem.path == ("tiles", 2)


@pytest.mark.parametrize("missing", ["forest", "mine"])
def test_a_missing_starting_half(missing):
    kept = "mine" if missing == "forest" else "forest"
    problem = only_problem(town_data(b(0, 0, kept), start=False))
    assert problem.path == ("tiles",) and f"no {missing}" in problem.message


def test_a_second_forest():
    problem = only_problem(town_data(t(1, 0, "NS"), b(2, 0, "forest")))
    assert problem.path == ("tiles", 3, "building") and "second forest" in problem.message


def test_a_split_starting_tile():
    problem = only_problem(town_data(b(0, 0, "forest"), t(0, 1, "EW"), b(0, 2, "mine"),
                                     start=False))
    assert problem.path == ("tiles", 2) and "orthogonally next to the forest" in problem.message


def test_a_diagonal_starting_tile_is_split():
    problems = problems_of(town_data(b(0, 0, "forest"), t(0, 1, "EW"), b(1, 1, "mine"),
                                     start=False))
    assert ("tiles", 2) in [p.path for p in problems]


@pytest.mark.parametrize("sides", [[], ["N"], ["N", "E", "S", "W"]])
def test_bad_trail_shapes(sides):
    problem = only_problem(town_data({"row": 1, "col": 0, "trail": sides}))
    assert problem.path == ("tiles", 2, "trail")
    assert "two opposite sides" in problem.message


@pytest.mark.parametrize(("sides", "shape"), [("NS", TrailShape.STRAIGHT),
                                              ("EW", TrailShape.STRAIGHT),
                                              ("NE", TrailShape.CURVED),
                                              ("SW", TrailShape.CURVED),
                                              ("NES", TrailShape.T_JUNCTION)])
def test_good_trail_shapes(sides, shape):
    assert town(t(1, 0, sides)).tile_at(Position(1, 0)).shape is shape


def test_trail_side_names_and_repeats():
    assert only_problem(town_data(t(1, 0, "NX"))).path == ("tiles", 2, "trail", 1)
    assert only_problem(town_data(t(1, 0, "NN"))).path == ("tiles", 2, "trail", 1)


def test_a_trail_holds_no_goods():
    problem = only_problem(town_data({"row": 1, "col": 0, "trail": ["N", "S"],
                                      "goods": {"wood": 1}}))
    assert problem.path == ("tiles", 2, "goods")


def test_an_unknown_building_gets_a_suggestion():
    problem = only_problem(town_data(b(1, 0, "charcoal_klin")))
    assert problem.path == ("tiles", 2, "building")
    assert "did you mean Charcoal Kiln" in problem.message
    assert problem.message.params["like"][0] == "Charcoal Kiln"


def test_a_misspelt_building_does_not_hide_a_tile_cut_off():
    """The whole transcription is judged at once: an unknown building still occupies its
    square, so the town's one group is judged with it (FF-R9)."""
    problems = problems_of(town_data(b(1, 0, "granery"), t(5, 5, "NS")))
    assert [p.path for p in problems] == [("tiles", 2, "building"), ("tiles", 3)]
    assert "did you mean Granary" in problems[0].message
    assert "does not touch the rest of the town" in problems[1].message


def test_an_unread_tile_cut_off_is_reported_both_ways():
    problems = problems_of(town_data(b(5, 5, "granery"), t(1, 0, "N")))
    assert [p.path for p in problems] == [("tiles", 2, "building"), ("tiles", 3, "trail"),
                                          ("tiles", 2)]


def test_an_unread_tile_joins_the_tiles_around_it():
    """The trail at (2, 0) touches the town only through the misspelt building."""
    assert [p.path for p in problems_of(town_data(b(1, 0, "granery"), t(2, 0, "NS")))] == [
        ("tiles", 2, "building")]


def test_a_misspelt_starting_half_is_not_also_missing():
    """An unknown building may be the forest misspelt: "no forest" is not said too, but
    the rest of the town is still judged."""
    problems = problems_of(town_data(b(0, 0, "forrest"), b(0, 1, "mine"), t(4, 4, "EW"),
                                     start=False))
    assert [p.path for p in problems] == [("tiles", 0, "building"), ("tiles", 2)]


def test_a_tile_s_own_problems_do_not_stop_the_town_s():
    problems = problems_of(town_data(b(1, 0, "butcher", wheat=1), b(0, 0, "forest"),
                                     start=False))
    assert [p.path for p in problems] == [("tiles", 0, "goods", "wheat"), ("tiles",)]
    assert "no mine" in problems[1].message


def test_goods_a_building_cannot_hold():
    problem = only_problem(town_data(b(1, 0, "butcher", wheat=1)))
    assert problem.path == ("tiles", 2, "goods", "wheat")
    assert "FF-R19" in problem.message and "coal, sheep" in problem.message


def test_more_goods_than_slots():
    problem = only_problem(town_data(b(1, 0, "butcher", sheep=3, coal=2)))
    assert problem.path == ("tiles", 2, "goods") and "4 goods slots" in problem.message


def test_a_building_that_holds_nothing():
    problems = problems_of(town_data(b(1, 0, "fountain", wood=1)))
    assert [p.path for p in problems] == [("tiles", 2, "goods", "wood"), ("tiles", 2, "goods")]
    assert "here none" in problems[0].message and "0 goods slots" in problems[1].message


@pytest.mark.parametrize(("goods", "path"), [
    ({"wood": -1}, ("tiles", 0, "goods", "wood")),
    ({"wood": 10**9}, ("tiles", 0, "goods", "wood")),
    ({"wood": 1.5}, ("tiles", 0, "goods", "wood")),
    ({"gold": 1}, ("tiles", 0, "goods", "gold")),
    (["wood"], ("tiles", 0, "goods")),
])
def test_bad_goods(goods, path):
    data = town_data(start=False)
    data["tiles"] = [{"row": 0, "col": 0, "building": "forest", "goods": goods},
                     {"row": 0, "col": 1, "building": "mine"}]
    assert path in [p.path for p in problems_of(data)]


@pytest.mark.parametrize(("field", "value"), [("row", 1001), ("col", -1001), ("row", True),
                                              ("row", "1"), ("col", None)])
def test_absurd_coordinates(field, value):
    tile = t(1, 0, "NS")
    tile[field] = value
    assert only_problem(town_data(tile)).path == ("tiles", 2, field)


def test_a_missing_coordinate():
    assert only_problem(town_data({"col": 0, "trail": ["N", "S"]})).path == ("tiles", 2, "row")


def test_too_many_tiles():
    tiles = [t(1 + i // 50, i % 50, "EW") for i in range(MAX_TILES - 1)]  # + forest, mine
    problem = only_problem(town_data(*tiles))
    assert problem.path == ("tiles",)
    assert problem.message == f"at most {MAX_TILES} tiles; got {MAX_TILES + 1}"


@pytest.mark.parametrize("score", [-1, 10_001, "64", True, 6.5])
def test_bad_score_track(score):
    assert only_problem(town_data(score_track=score)).path == ("score_track",)


def test_unknown_variant():
    problem = only_problem(town_data(variant="hard"))
    assert problem.path == ("variant",) and "standard, expert" in problem.message


def test_unknown_fields():
    assert only_problem(town_data(colour="red")).path == ("colour",)
    tile = t(1, 0, "NS")
    tile["rotation"] = 90
    assert only_problem(town_data(tile)).path == ("tiles", 2, "rotation")


def test_a_tile_is_a_building_or_a_trail():
    both = {"row": 1, "col": 0, "building": "ranch", "trail": ["N", "S"]}
    assert "not both" in only_problem(town_data(both)).message
    neither = {"row": 1, "col": 0}
    assert only_problem(town_data(neither)).path == ("tiles", 2)


@pytest.mark.parametrize("data", [None, [], "town", 3])
def test_not_an_object(data):
    assert only_problem(data).path == ()


def test_no_tiles():
    assert only_problem({"variant": "standard"}).path == ("tiles",)
    assert only_problem({"tiles": {}}).path == ("tiles",)
    assert "no forest" in problems_of({"tiles": []})[0].message


def test_every_problem_at_once_and_nested_paths():
    data = town_data(b(1, 0, "ranch", wood=1), t(2, 0, "N"), score_track=-3, variant="x")
    problems = problems_of(data, path=("players", 1, "town"))
    assert {p.path for p in problems} == {
        ("players", 1, "town", "variant"), ("players", 1, "town", "score_track"),
        ("players", 1, "town", "tiles", 2, "goods", "wood"),
        ("players", 1, "town", "tiles", 3, "trail")}
    assert {p.pointer for p in problems} >= {"/players/1/town/tiles/3/trail"}


# -- the rules' check, whoever built the town -----------------------------------------

def test_check_town_judges_a_town_built_directly():
    """What a reader refuses is the rules' to judge: the same problems for a town built
    in code, so no reader is trusted to have checked for it."""
    built = town(b(1, 0, "ranch"))
    tiles = dict(built.tiles)
    ranch = tiles.pop(Position(1, 0))
    tiles[Position(1001, 0)] = BuildingTile(Position(1001, 0), ranch.building, Goods(sheep=-1))
    problems = check_town(Town(tiles, built.catalog, built.variant, score_track=-2))
    assert {(p.path, p.message) for p in problems} == {
        (("score_track",), "must be from 0 to 10000; got -2"),
        (("tiles", 2, "row"), "must be from -1000 to 1000; got 1001"),
        (("tiles", 2, "goods", "sheep"), "must be from 0 to 1000; got -1")}


def test_a_partly_read_town_is_checked_without_its_whole():
    """A reader that could not read every tile says so: the tiles it read are checked,
    the starting tile and the one group are not (they would report what is missing)."""
    forest_only = town(b(0, 0, "forest"), b(0, 1, "mine"), start=False)
    tiles = {p: tile for p, tile in forest_only.tiles.items() if p == Position(0, 0)}
    partial = Town(tiles, forest_only.catalog)
    assert "no mine" in check_town(partial)[0].message
    assert check_town(partial, complete=False) == []
    assert check_town(partial, index={Position(0, 0): 7}, complete=False) == []


def test_the_squares_of_unread_tiles_count_for_the_whole_town():
    built = town()
    far = {Position(0, 2): 2, Position(5, 5): 3}  # one beside the mine, one cut off
    (found,) = check_town(built, unread=far)
    assert found.path == ("tiles", 3) and "row 5, col 5" in found.message
    assert check_town(built, unread={Position(0, 2): 2}) == []


def test_paths_follow_the_request_s_index():
    read = town(b(1, 0, "ranch"))
    ranch = read.building_at(Position(1, 0))
    tiles = {**read.tiles, ranch.position: BuildingTile(ranch.position, ranch.building,
                                                        Goods(wood=1))}
    index = {position: 10 + i for i, position in enumerate(tiles)}
    (found,) = check_town(Town(tiles, read.catalog), index=index)
    assert found.path == ("tiles", 12, "goods", "wood")


SOME_BUILDINGS = [*(builtin_catalog()[name] for name in ("forest", "mine", "ranch", "butcher",
                                                         "windmill")),
                  replace(builtin_catalog()["ranch"], slots=5000)]
COORDINATES = st.sampled_from([0, 1, -1, 999, 1000, 1001, -1000, -1001])
GOODS_HELD = st.dictionaries(st.integers(0, 4), st.sampled_from([1, 2, 3, -1, 1000, 1001]),
                             max_size=2).map(lambda held: [held.get(i, 0) for i in range(5)])


@settings(max_examples=400)
@example(0, 0, (SOME_BUILDINGS[-1], [0, 0, 0, 0, 1001]))  # within its slots, past the bound
@example(0, 0, (SOME_BUILDINGS[2], [0, 0, 0, 0, 8]))  # full
@example(1000, -1000, frozenset({Side.N, Side.S}))
@given(COORDINATES, COORDINATES,
       st.one_of(st.frozensets(st.sampled_from(list(Side))),
                 st.tuples(st.sampled_from(SOME_BUILDINGS),
                           GOODS_HELD)))
def test_the_quick_look_at_a_tile_agrees_with_its_check(row, col, kind):
    position = Position(row, col)
    if isinstance(kind, frozenset):
        tile = TrailTile(position, kind)
    else:
        building, goods = kind
        tile = BuildingTile(position, building, Goods(*goods))
    assert _sound(tile) == (not _check_tile(tile, ("tiles", 0)))

"""The transport check: legal moves with their route and town after, or every violation."""

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import (
    Good,
    Goods,
    IllegalMoveError,
    Move,
    Pick,
    Position,
    apply_haul,
    apply_move,
    check_haul,
    check_move,
    check_town,
    free_slots,
    parse_move,
    parse_town,
    parse_transport_request,
    reachable,
    transport_verdict_to_dict,
    validate_transport,
)
from tabletop_rules.problems import InvalidInputError

from .towns import PLACEABLE, b, load, t, town, town_data, town_dicts

P = Position
KULY = load("kuly_transport_and_processing.json")

# Forest (0,0) - trail (1,0) - Butcher (2,0) - trail (3,0) - Charcoal Kiln (4,0)
LINE = [t(1, 0, "NS"), b(2, 0, "butcher"), t(3, 0, "NS"), b(4, 0, "charcoal_kiln")]


def move(good, count, origin, destination):
    return Move(Good(good), count, P(*origin), P(*destination))


def reasons(check):
    """Each violation's reason and the pointer of what breaks the rule, in the move."""
    return [(v.reason, v.pointer()) for v in check.violations]


@pytest.mark.parametrize("step", KULY["transportation"], ids=lambda s: s["step"])
def test_kuly_moves_are_legal_in_turn(step):
    town_ = parse_town(KULY["town"])
    for earlier in KULY["transportation"]:
        if earlier is step:
            break
        town_ = apply_move(town_, parse_move(earlier["move"]))
    check = validate_transport(town_, parse_move(step["move"]))
    assert check.legal and check.violations == ()
    assert [p.to_list() for p in check.path] == step["path"]
    for building_id, goods in step["after"].items():
        (tile,) = [x for x in check.town.buildings if x.building.id == building_id]
        assert tile.goods == Goods.of(goods)
    answer = transport_verdict_to_dict(check)
    assert answer["legal"] is True and answer["path"] == step["path"]
    assert parse_town(answer["town"]) == check.town


def test_kuly_move_a_fills_the_butcher():
    town_ = parse_town(KULY["town"])
    after = apply_move(town_, parse_move(KULY["transportation"][0]["move"]))
    assert free_slots(after, P(1, 3)) == KULY["transportation"][0]["butcher_free_slots_after"]


def test_moving_changes_only_the_two_buildings():
    town_ = town(*LINE[:2], t(3, 0, "NS"), b(4, 0, "charcoal_kiln", coal=2))
    after = apply_move(town_, move("coal", 2, (4, 0), (2, 0)))
    assert after.goods_at(P(4, 0)) == Goods() and after.goods_at(P(2, 0)) == Goods(coal=2)
    assert after.score_track == town_.score_track and after.tile_count == town_.tile_count
    assert after.goods_remaining == town_.goods_remaining


def test_origin_and_destination_must_be_buildings():
    town_ = town(*LINE)
    check = validate_transport(town_, move("wood", 1, (1, 0), (9, 9)))
    assert reasons(check) == [("ORIGIN_NOT_A_BUILDING", "/from"),
                              ("DESTINATION_NOT_A_BUILDING", "/to")]
    assert [v.message for v in check.violations] == [
        '"from" (row 1, col 0) is a trail tile: goods sit on building tiles and move '
        'between them',
        '"to" (row 9, col 9) is no tile: goods sit on building tiles and move between them']
    assert {v.rule for v in check.violations} == {"FF-R2"}


def test_same_building():
    the_move = move("wood", 1, (0, 0), (0, 0))
    check = validate_transport(town(*LINE), the_move)
    assert reasons(check) == [("SAME_BUILDING", "/to")]
    assert (check.move, check.path, check.town) == (the_move, (), None)


def test_not_enough_goods():
    check = validate_transport(town(*LINE), move("wood", 1, (0, 0), (4, 0)))
    assert reasons(check) == [("NOT_ENOUGH_GOODS", "/count")]
    assert "holds 0 wood" in check.violations[0].message


def test_destination_must_depict_the_good():
    town_ = town(b(0, 0, "forest", wood=2), b(0, 1, "mine"), *LINE, start=False)
    check = validate_transport(town_, move("wood", 1, (0, 0), (2, 0)))
    assert reasons(check) == [("DESTINATION_DOES_NOT_DEPICT_GOOD", "/to")]
    assert check.violations[0].rule == "FF-R3" and "Butcher" in check.violations[0].message


def test_destination_needs_a_free_slot_per_good():
    town_ = town(b(0, 0, "forest", wood=4), b(0, 1, "mine"), *LINE[:3],
                 b(4, 0, "charcoal_kiln", coal=1), start=False)
    check = validate_transport(town_, move("wood", 3, (0, 0), (4, 0)))
    assert reasons(check) == [("NOT_ENOUGH_FREE_SLOTS", "/to")]
    assert check.violations[0].rule == "FF-R3" and "2 free slots" in check.violations[0].message
    legal = move("wood", 2, (0, 0), (4, 0))
    assert validate_transport(town_, legal).move == legal
    full = town(b(0, 0, "forest", wood=4), b(0, 1, "mine"), *LINE[:3],
                b(4, 0, "charcoal_kiln", coal=3), start=False)
    [violation] = validate_transport(full, move("wood", 1, (0, 0), (4, 0))).violations
    assert violation.message == ("the Charcoal Kiln at row 4, col 0 has 0 free slots; 1 wood "
                                 "do not fit (a full building can still be passed through)")


def test_no_route():
    town_ = town(b(0, 0, "forest", wood=2), b(0, 1, "mine"), b(1, 0, "charcoal_kiln"),
                 start=False)
    check = validate_transport(town_, move("wood", 1, (0, 0), (1, 0)))
    assert reasons(check) == [("NO_ROUTE", "")]
    assert (check.violations[0].rule, check.violations[0].message) == (
        "FF-R2", "no trail route joins the Forest at row 0, col 0 to the Charcoal Kiln at "
        "row 1, col 0: goods move only along connected trails, and neighbouring buildings "
        "are not connected to each other")


def test_free_slots_on_a_building_and_elsewhere():
    line = town(*LINE)
    assert [free_slots(line, P(*where)) for where in ((4, 0), (1, 0), (9, 9))] == [3, 0, 0]


def test_expert_route_blocked():
    town_ = town(b(0, 0, "forest", wood=2), b(0, 1, "mine"), *LINE, start=False,
                 variant="expert")
    with pytest.raises(IllegalMoveError):  # the fast path reads the variant too
        apply_move(town_, move("wood", 1, (0, 0), (4, 0)))
    check = validate_transport(town_, move("wood", 1, (0, 0), (4, 0)))
    assert reasons(check) == [("EXPERT_ROUTE_BLOCKED", "")]
    assert check.violations[0].rule == "FF-R2"
    assert "Butcher at row 2, col 0" in check.violations[0].message
    standard = town(b(0, 0, "forest", wood=2), b(0, 1, "mine"), *LINE, start=False)
    assert validate_transport(standard, move("wood", 1, (0, 0), (4, 0))).legal


def test_every_violation_at_once():
    town_ = town(b(0, 0, "forest"), b(0, 1, "mine"), *LINE, start=False, variant="expert")
    # no wood on the Kiln, the Forest does not depict coal... and no expert route for coal
    check = validate_transport(town_, move("coal", 1, (4, 0), (0, 0)))
    assert reasons(check) == [("NOT_ENOUGH_GOODS", "/count"),
                              ("DESTINATION_DOES_NOT_DEPICT_GOOD", "/to")]
    answer = transport_verdict_to_dict(check)
    assert answer["legal"] is False
    assert [(v["reason"], v["pointer"]) for v in answer["violations"]] == [
        ("NOT_ENOUGH_GOODS", "/move/count"), ("DESTINATION_DOES_NOT_DEPICT_GOOD", "/move/to")]
    assert set(answer["violations"][0]) == {"rule", "reason", "message", "pointer"}


def test_apply_move_raises_with_the_violations():
    with pytest.raises(IllegalMoveError) as error:
        apply_move(town(*LINE), move("wood", 1, (0, 0), (4, 0)))
    assert [v.reason for v in error.value.violations] == ["NOT_ENOUGH_GOODS"]


@given(town_dicts(max_tiles=14), st.data())
def test_apply_move_agrees_with_check_move(data, draw):
    town_ = parse_town(data)
    tiles = town_.buildings
    origin = draw.draw(st.sampled_from(tiles))
    destination = draw.draw(st.sampled_from(tiles))
    good = draw.draw(st.sampled_from(list(Good)))
    the_move = Move(good, draw.draw(st.integers(1, 4)), origin.position, destination.position)
    check = validate_transport(town_, the_move)
    if check.legal:
        assert apply_move(town_, the_move) == check.town
        assert check.town.goods_remaining == town_.goods_remaining
        assert destination.position in reachable(town_, origin.position, good)
        assert check_town(check.town) == []  # still holds only what it may (FF-R19)
    else:
        with pytest.raises(IllegalMoveError):
            apply_move(town_, the_move)


# -- reading a move ---------------------------------------------------------------------

def test_parse_move():
    assert parse_move({"good": "wood", "count": 2, "from": {"row": 0, "col": 0},
                       "to": {"row": 2, "col": 1}}) == move("wood", 2, (0, 0), (2, 1))


@pytest.mark.parametrize(("data", "path"), [
    ({"good": "gold", "count": 1, "from": {"row": 0, "col": 0}, "to": {"row": 1, "col": 0}},
     ("move", "good")),
    ({"good": "wood", "count": 0, "from": {"row": 0, "col": 0}, "to": {"row": 1, "col": 0}},
     ("move", "count")),
    ({"good": "wood", "count": 1, "from": {"row": 0}, "to": {"row": 1, "col": 0}},
     ("move", "from", "col")),
    ({"good": "wood", "count": 1, "from": {"row": 0, "col": 0}, "to": [1, 0]},
     ("move", "to")),
    ({"good": "wood", "count": 1, "from": {"row": 0, "col": 0}, "to": {"row": 1, "col": 0},
      "speed": 3}, ("move", "speed")),
])
def test_parse_move_problems(data, path):
    with pytest.raises(InvalidInputError) as error:
        parse_move(data, path=("move",))
    assert [p.path for p in error.value.problems] == [path]


def test_check_move_judges_a_move_built_directly():
    problems = check_move(Move(Good.WOOD, 0, P(2000, 0), P(0, -1001)))
    assert [(p.path, p.message) for p in problems] == [
        (("count",), "must be from 1 to 30; got 0"),
        (("from", "row"), "must be from -1000 to 1000; got 2000"),
        (("to", "col"), "must be from -1000 to 1000; got -1001")]
    assert check_move(move("wood", 30, (0, 0), (1, 0))) == []


def test_parse_transport_request_reports_town_and_move_problems_together():
    body = {"town": town_data(score_track=-1),
            "move": {"good": "gold", "count": 1, "from": {"row": 0, "col": 0},
                     "to": {"row": 0, "col": 1}}}
    with pytest.raises(InvalidInputError) as error:
        parse_transport_request(body)
    assert [p.path for p in error.value.problems] == [("town", "score_track"), ("move", "good")]
    body["town"]["score_track"] = 3
    body["move"]["good"] = "stone"
    town_, the_move = parse_transport_request(body)
    assert town_.score_track == 3 and the_move.good is Good.STONE


# -- Hauler's Hut (FF-R17) --------------------------------------------------------------

def test_haul_ignores_routes():
    town_ = town(b(0, 0, "forest", wood=3), b(0, 1, "mine", stone=2), b(1, 0, "haulers_hut"),
                 b(-1, 0, "butcher", coal=1), start=False)
    after = apply_haul(town_, P(1, 0), [Pick(Good.WOOD, 2, P(0, 0)), Pick(Good.STONE, 1, P(0, 1)),
                                        Pick(Good.COAL, 1, P(-1, 0))])
    assert after.goods_at(P(1, 0)) == Goods(wood=2, stone=1, coal=1)
    assert after.goods_at(P(0, 0)) == Goods(wood=1)


def test_haul_limits():
    town_ = town(b(0, 0, "forest", wood=5), b(0, 1, "mine", stone=2), b(1, 0, "haulers_hut"),
                 start=False)
    too_many = check_haul(town_, P(1, 0), [Pick(Good.WOOD, 5, P(0, 0))])
    assert [(v.reason, v.path) for v in too_many] == [("TOO_MANY_GOODS", ("picks",)),
                                                      ("NOT_ENOUGH_FREE_SLOTS", ("picks",))]
    assert {v.rule for v in too_many} == {"FF-R17"}
    short = check_haul(town_, P(1, 0), [Pick(Good.WOOD, 1, P(0, 0)), Pick(Good.STONE, 3, P(0, 1))])
    assert [(v.reason, v.path) for v in short] == [("NOT_ENOUGH_GOODS", ("picks", 1, "count"))]
    itself = check_haul(town_, P(1, 0), [Pick(Good.WOOD, 1, P(1, 0))])
    assert [(v.reason, v.path) for v in itself] == [
        ("ORIGIN_NOT_ANOTHER_BUILDING", ("picks", 0, "from"))]
    not_a_hut = check_haul(town_, P(0, 1), [Pick(Good.WOOD, 1, P(0, 0))])
    assert [(v.reason, v.path) for v in not_a_hut] == [("NOT_A_HAULER", ("to",))]
    with pytest.raises(IllegalMoveError):
        apply_haul(town_, P(0, 1), [Pick(Good.WOOD, 1, P(0, 0))])


def test_apply_move_refuses_a_destination_without_free_slots():
    """The fast path must check free slots as validate_transport does (FF-R3)."""
    town_ = town(b(0, 0, "forest", wood=4), b(0, 1, "mine"), *LINE[:3],
                 b(4, 0, "charcoal_kiln", coal=1), start=False)
    with pytest.raises(IllegalMoveError) as error:
        apply_move(town_, move("wood", 3, (0, 0), (4, 0)))
    assert [v.reason for v in error.value.violations] == ["NOT_ENOUGH_FREE_SLOTS"]
    assert apply_move(town_, move("wood", 2, (0, 0), (4, 0))).goods_at(P(4, 0)) == Goods(
        wood=2, coal=1)


@pytest.mark.parametrize("count", [0, -1])
def test_a_haul_of_no_goods_is_refused(count):
    town_ = town(b(0, 0, "forest", wood=5), b(0, 1, "mine"), b(1, 0, "haulers_hut"),
                 start=False)
    violations = check_haul(town_, P(1, 0), [Pick(Good.WOOD, count, P(0, 0))])
    assert [(v.reason, v.path) for v in violations] == [("NOT_ENOUGH_GOODS",
                                                         ("picks", 0, "count"))]
    with pytest.raises(IllegalMoveError):
        apply_haul(town_, P(1, 0), [Pick(Good.WOOD, count, P(0, 0))])


@st.composite
def trunk_towns(draw: st.DrawFn) -> dict:
    """A town whose buildings hang east of one trail trunk below the Forest, so most
    moves have a route; now and then a curved trail cuts the trunk."""
    rows = draw(st.integers(2, 8))
    cut = draw(st.integers(1, 4 * rows))  # a row past the trunk's end: no cut
    tiles = [b(0, 0, "forest", wood=draw(st.integers(0, 5))), b(-1, 0, "mine")]
    for row in range(1, rows + 1):
        tiles.append(t(row, 0, "WN" if row == cut else "NES"))
        building = draw(st.sampled_from(PLACEABLE))
        kinds = sorted(g.value for g in building.depicts)
        cubes = draw(st.lists(st.sampled_from(kinds), max_size=building.slots)) if kinds else []
        tiles.append(b(row, 1, building.id, **{k: cubes.count(k) for k in set(cubes)}))
    return {"tiles": tiles, "variant": draw(st.sampled_from(["standard", "expert"]))}


@given(st.one_of(town_dicts(max_tiles=14), trunk_towns()), st.data())
def test_moves_of_held_goods_agree_between_apply_and_check(data, draw):
    """Moves drawn from what buildings hold, so that many are legal and the rest fail
    for one reason at a time (free slots, routes, depiction)."""
    town_ = parse_town(data)
    holders = [tile for tile in town_.buildings if any(tile.goods)]
    if not holders:
        return
    origin = draw.draw(st.sampled_from(holders))
    good = draw.draw(st.sampled_from([g for g in Good if origin.goods.count(g)]))
    takers = [tile for tile in town_.buildings
              if tile is not origin and good in tile.building.depicts]
    destination = draw.draw(st.sampled_from(takers or town_.buildings))
    count = draw.draw(st.integers(1, origin.goods.count(good)))
    the_move = Move(good, count, origin.position, destination.position)
    check = validate_transport(town_, the_move)
    event(f"legal: {check.legal}")
    for violation in check.violations:
        event(violation.reason)
    if check.legal:
        assert apply_move(town_, the_move) == check.town
    else:
        with pytest.raises(IllegalMoveError) as error:
            apply_move(town_, the_move)
        assert error.value.violations == check.violations


@pytest.mark.parametrize(("origin", "destination", "expected"), [
    ((1, 0), (2, 0), [("ORIGIN_NOT_A_BUILDING", "/from"),
                      ("DESTINATION_DOES_NOT_DEPICT_GOOD", "/to")]),
    ((0, 0), (3, 0), [("DESTINATION_NOT_A_BUILDING", "/to"), ("NOT_ENOUGH_GOODS", "/count")]),
], ids=["from a trail", "to a trail"])
def test_a_move_with_one_end_on_a_building(origin, destination, expected):
    """One good end is judged, the other refused; no route is looked for."""
    the_move = move("wood", 1, origin, destination)
    check = validate_transport(town(*LINE), the_move)
    assert sorted(reasons(check)) == sorted(expected)
    assert (check.move, check.path, check.town) == (the_move, (), None)


def test_each_refusal_names_its_rule_and_says_why():
    line = town(*LINE)
    same = validate_transport(line, move("wood", 1, (0, 0), (0, 0))).violations
    empty = validate_transport(line, move("wood", 1, (0, 0), (4, 0))).violations
    assert [(v.rule, v.message) for v in (*same, *empty)] == [
        ("FF-R2", "from and to are both the Forest at row 0, col 0: a move takes goods to "
                  "another building"),
        ("FF-R2", "the Forest at row 0, col 0 holds 0 wood; it cannot send 1")]
    hut = town(b(0, 0, "forest", wood=5), b(0, 1, "mine", stone=2), b(1, 0, "haulers_hut"),
               start=False)
    hauls = [check_haul(hut, P(1, 0), [Pick(Good.WOOD, 5, P(0, 0))]),
             check_haul(hut, P(1, 0), [Pick(Good.WOOD, 1, P(1, 0))]),
             check_haul(hut, P(0, 1), [Pick(Good.WOOD, 1, P(0, 0))]),
             check_haul(hut, P(1, 0), [Pick(Good.STONE, 3, P(0, 1))])]
    assert [(v.rule, v.message) for found in hauls for v in found] == [
        ("FF-R17", "the Hauler's Hut at row 1, col 0 takes up to 4 goods; 5 were picked"),
        ("FF-R17", "the Hauler's Hut at row 1, col 0 has 4 free slots; 5 goods do not fit"),
        ("FF-R17", "row 1, col 0 is not another building"),
        ("FF-R17", "row 0, col 1 is not a building that hauls goods (such as the Hauler's Hut)"),
        ("FF-R17", "the Mine at row 0, col 1 holds 2 stone")]


HUT = town(b(0, 0, "forest", wood=5), b(0, 1, "mine", stone=2), b(1, 0, "haulers_hut", wood=1),
           start=False)
"""A Hauler's Hut holding 1 wood on its 4 slots, beside the starting tile."""
# Forest - Butcher - Charcoal Kiln - Bakery - Scrapyard down one trail: the Kiln and the
# Scrapyard depict wood, the Butcher and the Bakery do not
DEPICTING_BY_TURNS = [b(0, 0, "forest", wood=2), b(0, 1, "mine"), *LINE, t(5, 0, "NS"),
                      b(6, 0, "bakery"), t(7, 0, "NS"), b(8, 0, "scrapyard")]


def judged(town_, action):
    """The violations of a move, or of a haul given as its hut and picks."""
    if isinstance(action, Move):
        return validate_transport(town_, action).violations
    hut, picks = action
    return check_haul(town_, hut, picks)


@pytest.mark.parametrize(("town_", "action", "expected"), [
    (town(*LINE), move("wood", 1, (1, 0), (9, 8)), [
        ("ORIGIN_NOT_A_BUILDING", "FF-R2", "/from",
         {"what": "trail", "field": "from", "row": 1, "col": 0}),
        ("DESTINATION_NOT_A_BUILDING", "FF-R2", "/to",
         {"what": "empty", "field": "to", "row": 9, "col": 8})]),
    (town(*LINE), move("wood", 1, (2, 0), (2, 0)), [
        ("SAME_BUILDING", "FF-R2", "/to", {"building": ("Butcher", 2, 0)})]),
    (town(b(0, 0, "forest", wood=2), b(0, 1, "mine"), *LINE, start=False),
     move("wood", 3, (0, 0), (2, 0)), [
         ("NOT_ENOUGH_GOODS", "FF-R2", "/count",
          {"why": "send", "building": ("Forest", 0, 0), "held": 2, "good": "wood", "count": 3}),
         ("DESTINATION_DOES_NOT_DEPICT_GOOD", "FF-R3", "/to",
          {"building": ("Butcher", 2, 0), "good": "wood"})]),
    (town(b(0, 0, "forest", wood=4), b(0, 1, "mine"), *LINE[:3],
          b(4, 0, "charcoal_kiln", coal=1), start=False), move("wood", 3, (0, 0), (4, 0)), [
        ("NOT_ENOUGH_FREE_SLOTS", "FF-R3", "/to", {"why": "move", "building": (
            "Charcoal Kiln", 4, 0), "free": 2, "count": 3, "good": "wood"})]),
    (town(b(0, 0, "forest", wood=4), b(0, 1, "mine"), *LINE[:3],
          b(4, 0, "charcoal_kiln", coal=3), start=False), move("wood", 1, (0, 0), (4, 0)), [
        ("NOT_ENOUGH_FREE_SLOTS", "FF-R3", "/to", {"why": "move", "building": (
            "Charcoal Kiln", 4, 0), "free": 0, "count": 1, "good": "wood"})]),
    (town(b(0, 0, "forest", wood=2), b(0, 1, "mine"), b(1, 0, "charcoal_kiln"), start=False),
     move("wood", 1, (0, 0), (1, 0)), [
         ("NO_ROUTE", "FF-R2", "",
          {"origin": ("Forest", 0, 0), "destination": ("Charcoal Kiln", 1, 0)})]),
    (town(*DEPICTING_BY_TURNS, start=False, variant="expert"), move("wood", 1, (0, 0), (8, 0)), [
        ("EXPERT_ROUTE_BLOCKED", "FF-R2", "", {
            "good": "wood", "origin": ("Forest", 0, 0), "destination": ("Scrapyard", 8, 0),
            "blocking": ("Butcher", 2, 0, "Bakery", 6, 0)})]),
    (HUT, (P(0, 1), [Pick(Good.WOOD, 1, P(0, 0))]), [
        ("NOT_A_HAULER", "FF-R17", "/to", {"row": 0, "col": 1})]),
    (HUT, (P(1, 0), [Pick(Good.WOOD, 4, P(0, 0)), Pick(Good.STONE, 3, P(0, 1)),
                     Pick(Good.WOOD, 1, P(5, 6))]), [
        ("TOO_MANY_GOODS", "FF-R17", "/picks",
         {"building": ("Hauler's Hut", 1, 0), "most": 4, "count": 8}),
        ("NOT_ENOUGH_FREE_SLOTS", "FF-R17", "/picks",
         {"why": "haul", "building": ("Hauler's Hut", 1, 0), "free": 3, "count": 8}),
        ("NOT_ENOUGH_GOODS", "FF-R17", "/picks/1/count",
         {"why": "haul", "building": ("Mine", 0, 1), "held": 2, "good": "stone"}),
        ("ORIGIN_NOT_ANOTHER_BUILDING", "FF-R17", "/picks/2/from", {"row": 5, "col": 6})]),
], ids=["not buildings", "same building", "short and not depicted", "too few slots",
        "no slot", "no route", "expert route blocked", "not a hauler", "haul limits"])
def test_each_violation_names_in_its_params_what_it_is_about(town_, action, expected):
    """An app words a violation itself from its code and params (tabletop_rules.messages),
    so each param must name the building, good, count or position the sentence is about;
    rows differ from columns and counts from what is held, so a swap shows. Its rule and
    pointer are read too: all a violation says."""
    assert [(v.reason, v.rule, v.pointer(), dict(v.message.params))
            for v in judged(town_, action)] == expected


def test_every_pick_of_a_haul_is_judged_and_picks_from_one_building_add_up():
    hut = town(b(0, 0, "forest", wood=5), b(0, 1, "mine", stone=2), b(1, 0, "haulers_hut"),
               start=False)
    nowhere = check_haul(hut, P(1, 0), [Pick(Good.WOOD, 1, P(5, 5)), Pick(Good.WOOD, 1, P(6, 6))])
    assert [v.path for v in nowhere] == [("picks", 0, "from"), ("picks", 1, "from")]
    twice = check_haul(hut, P(1, 0), [Pick(Good.STONE, 2, P(0, 1)), Pick(Good.STONE, 1, P(0, 1))])
    assert [(v.reason, v.path) for v in twice] == [("NOT_ENOUGH_GOODS", ("picks", 1, "count"))]
    assert [v.reason for v in check_haul(hut, P(9, 9), [Pick(Good.STONE, 1, P(0, 1))])] == [
        "NOT_A_HAULER"]

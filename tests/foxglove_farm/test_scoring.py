"""Final scoring (end-game effects, FF-R6 to FF-R8, FF-R18) and ranking (FF-R16)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import (
    check_players,
    end_game_points,
    parse_players,
    parse_town,
    rank_towns,
    ranking_to_dict,
    score_to_dict,
    score_town,
    town_to_dict,
)
from tabletop_rules.problems import InvalidInputError

from .towns import b, load, t, town, town_data, town_dicts


def entry(town_, building_id):
    (found,) = [e for e in score_town(town_).end_game if e.building == building_id]
    return found


@pytest.mark.parametrize(("sheep", "points"), [(0, 0), (1, 3), (7, 21), (8, 30)])
def test_ranch(sheep, points):
    ranch = entry(town(b(1, 0, "ranch", **({"sheep": sheep} if sheep else {}))), "ranch")
    assert ranch.points == points and ranch.rule == "FF-R7"


def test_ranch_with_more_slots_still_gives_the_bonus_once():
    town_ = parse_town(town_data(b(1, 0, "ranch", sheep=10),
                                 catalog={"ranch": {"slots": 10}}))
    assert entry(town_, "ranch").points == 36


# Community Centre (2,1), reached through trails only (FF-R6):
#   (1,1) T-junction W,E,S connects the Butcher (1,2) and the trail (1,0), which is open N
#   to the Forest (0,0); (2,0) the Charcoal Kiln sits beside the Centre with no trail.
#   Beyond the Butcher a trail leads on to the Ranch (1,4): it is behind a building.
COMMUNITY = [t(1, 0, "NE"), t(1, 1, "WES"), b(2, 1, "community_centre"), b(1, 2, "butcher"),
             t(1, 3, "WE"), b(1, 4, "ranch"), b(2, 0, "charcoal_kiln")]


def test_community_centre_counts_buildings_reached_through_trails_only():
    centre = entry(town(*COMMUNITY), "community_centre")
    assert centre.points == 6 and centre.rule == "FF-R6"  # the Forest and the Butcher
    assert "Forest at row 0, col 0" in centre.explanation and "Butcher at row 1, col 2" in centre.explanation
    assert "Ranch" not in centre.explanation and "Charcoal Kiln" not in centre.explanation


def test_community_centre_counts_each_building_once_and_never_itself():
    # a loop of trails from the Centre (2,0) back to it: (1,0), (1,1), (2,1)
    loop = [b(2, 0, "community_centre"), t(1, 0, "SE"), t(2, 1, "NW")]
    assert entry(town(*loop, t(1, 1, "WS")), "community_centre").points == 0
    # open the loop's corner north to the Mine: reached both ways round, counted once
    centre = entry(town(*loop, t(1, 1, "WSN")), "community_centre")
    assert centre.points == 3 and "Mine at row 0, col 1" in centre.explanation


def test_community_centre_with_nothing_connected():
    assert entry(town(b(1, 0, "community_centre")), "community_centre").points == 0


# Guildhall at (1,1); around it the Charcoal Kiln (0,2) diagonal, the Butcher (1,2) and
# the Market (2,0) diagonal have processing effects; the Forest, Mine and Ranch do not.
GUILD = [b(1, 1, "guildhall"), b(0, 2, "charcoal_kiln"), b(1, 2, "butcher"),
         b(2, 0, "market"), b(1, 0, "ranch"), b(2, 2, "ranch"), b(3, 0, "bakery")]


def test_guildhall_counts_surrounding_processing_buildings():
    hall = entry(town(*GUILD), "guildhall")
    assert hall.points == 9 and hall.rule == "FF-R8"
    assert "Market at row 2, col 0" in hall.explanation and "Bakery" not in hall.explanation


def test_guildhall_is_capped():
    ring = [b(r, c, "bakery") for r, c in ((1, 0), (2, 0), (3, 0), (1, 1), (3, 1), (1, 2),
                                           (2, 2), (3, 2))]
    full = town(*ring, b(2, 1, "guildhall"))
    assert entry(full, "guildhall").points == 24
    capped = parse_town(town_data(*ring, b(2, 1, "guildhall"), catalog={"guildhall": {
        "effects": [{"kind": "per_surrounding_processor", "points": 3, "max": 12}]}}))
    hall = entry(capped, "guildhall")
    assert hall.points == 12 and "at most 12" in hall.explanation


def test_a_request_defined_end_game_effect():
    data = town_data(b(1, 0, "museum", wheat=3, stone=1), catalog={"museum": {
        "slots": 4, "effects": [
            {"kind": "gain_per_held", "when": "end_game", "held": "wheat", "points": 2},
            {"kind": "bonus_if_held", "when": "end_game", "held": "stone", "at_least": 1,
             "points": 4}]}})
    museum = entry(parse_town(data), "museum")
    assert museum.points == 10 and museum.rule == "FF-RULEBOOK-END-OF-GAME"


def test_the_score_never_drops_below_zero():
    data = town_data(b(1, 0, "museum", coal=3), score_track=2, catalog={"museum": {
        "slots": 4, "effects": [
            {"kind": "gain_per_held", "when": "end_game", "held": "coal", "points": -2}]}})
    score = score_town(parse_town(data))
    assert score.end_game_points == -6 and score.total == 0  # FF-R18


def test_production_effects_do_not_score_at_the_end():
    score = score_town(town(b(1, 0, "coal_shed", coal=3), b(1, 1, "woolmill", sheep=2)))
    assert score.end_game == () and score.total == 0


def test_score_answer_shape():
    answer = score_to_dict(score_town(town(b(1, 0, "ranch", sheep=8), score_track=64)))
    assert answer["total"] == 94 and answer["score_track"] == 64
    assert answer["end_game_points"] == 30 and answer["goods_remaining"] == 8
    assert answer["tile_count"] == 3
    assert set(answer["end_game"][0]) == {"building", "row", "col", "points", "explanation",
                                          "rule"}


@given(town_dicts(max_tiles=20, trail_bias=0.4), st.integers(-300, 300),
       st.integers(-300, 300))
def test_scoring_is_invariant_under_translation(data, d_row, d_col):
    moved = {**data, "tiles": [{**tile, "row": tile["row"] + d_row, "col": tile["col"] + d_col}
                               for tile in data["tiles"]]}
    before, after = score_town(parse_town(data)), score_town(parse_town(moved))
    assert after.total == before.total and after.tile_count == before.tile_count
    assert after.goods_remaining == before.goods_remaining
    assert [(e.building, e.points) for e in after.end_game] == [
        (e.building, e.points) for e in before.end_game]


@given(town_dicts(max_tiles=20, trail_bias=0.4))
def test_score_adds_up(data):
    town_ = parse_town(data)
    score = score_town(town_)
    assert score.end_game_points == end_game_points(town_)
    assert score.total == max(0, town_.score_track + score.end_game_points)
    assert score_town(parse_town(town_to_dict(town_))) == score


# -- ranking ------------------------------------------------------------------------------

def test_most_points_wins():
    ranking = rank_towns([("Ana", town(score_track=50)), ("Kuly", town(score_track=60))])
    assert [(s.name, s.place) for s in ranking.standings] == [("Kuly", 1), ("Ana", 2)]
    assert ranking.winners == ("Kuly",)


def test_tie_breaks_fewest_goods_then_most_tiles_then_shared():
    goods = town(b(1, 0, "ranch", sheep=1), score_track=47)  # 50 points, 1 good, 3 tiles
    bare = town(b(1, 0, "ranch"), t(2, 0, "NS"), score_track=50)  # 50, 0 goods, 4 tiles
    small = town(b(1, 0, "ranch"), score_track=50)  # 50, 0 goods, 3 tiles
    twin = town(b(1, 0, "ranch"), score_track=50)
    ranking = rank_towns([("goods", goods), ("small", small), ("bare", bare), ("twin", twin)])
    assert [(s.name, s.place) for s in ranking.standings] == [
        ("bare", 1), ("small", 2), ("twin", 2), ("goods", 4)]
    assert rank_towns([("a", small), ("b", twin)]).winners == ("a", "b")
    answer = ranking_to_dict(ranking)
    assert answer["winners"] == ["bare"]
    assert answer["standings"][0] == {"name": "bare", "total": 50, "goods_remaining": 0,
                                      "tile_count": 4, "place": 1}


def test_fewest_goods_decides_before_most_tiles():
    """FF-R16's order: a town with fewer goods but fewer tiles still places first."""
    fewer_goods = town(b(1, 0, "ranch"), score_track=50)  # 50, 0 goods, 3 tiles
    more_tiles = town(b(1, 0, "ranch", sheep=1), t(2, 0, "NS"), t(3, 0, "NS"),
                      score_track=47)  # 50, 1 good, 5 tiles
    ranking = rank_towns([("more tiles", more_tiles), ("fewer goods", fewer_goods)])
    assert [(s.name, s.place) for s in ranking.standings] == [("fewer goods", 1),
                                                              ("more tiles", 2)]


def test_parse_players():
    players = parse_players({"players": [{"name": "Kuly", "town": town_data(score_track=3)}]})
    assert players[0][0] == "Kuly" and players[0][1].score_track == 3


@pytest.mark.parametrize(("body", "path"), [
    ({"players": []}, ("players",)),
    ({"players": [{"name": "A", "town": town_data()}] * 5}, ("players",)),
    ({"players": [{"name": "A", "town": town_data()}, {"name": "A", "town": town_data()}]},
     ("players", 1, "name")),
    ({"players": [{"name": " ", "town": town_data()}]}, ("players", 0, "name")),
    ({"players": [{"name": "A", "town": town_data(score_track=-1)}]},
     ("players", 0, "town", "score_track")),
    ({"teams": []}, ("players",)),
])
def test_parse_players_problems(body, path):
    with pytest.raises(InvalidInputError) as error:
        parse_players(body)
    assert path in [p.path for p in error.value.problems]


def test_four_players_rank_and_every_bad_town_is_reported():
    four = parse_players({"players": [{"name": n, "town": town_data()} for n in "ABCD"]})
    assert [name for name, _ in four] == ["A", "B", "C", "D"]
    with pytest.raises(InvalidInputError) as error:
        parse_players({"players": [{"name": "A", "town": town_data(score_track=-1)},
                                   {"name": "B", "town": town_data()},
                                   {"name": "C", "town": town_data(score_track=-2)}]})
    assert [p.path for p in error.value.problems] == [("players", 0, "town", "score_track"),
                                                      ("players", 2, "town", "score_track")]


def test_check_players_judges_names_however_they_were_read():
    problems = check_players(["Ana", "Ana", " ", None, "x" * 101][:4])
    assert [(p.path, p.message) for p in problems] == [
        (("players", 1, "name"), "'Ana' is named twice; give each player a distinct name"),
        (("players", 2, "name"), "a name has 1 to 100 characters")]
    assert [p.path for p in check_players(["x" * 101])] == [("players", 0, "name")]
    assert [p.message for p in check_players([])] == ["rank 1 to 4 players; got 0"]


END_GAME_EXPLANATIONS = load("end_game_explanations.json")["cases"]


@pytest.mark.parametrize("case", END_GAME_EXPLANATIONS, ids=lambda c: c["case"])
def test_each_end_game_effect_explains_itself_word_for_word(case):
    """The sentences an app shows for the Ranch, Community Centre and Guildhall (golden
    data: one case per branch, the buildings counted named in the order found)."""
    entries = score_town(parse_town(case["town"])).end_game
    assert [{"building": e.building, "points": e.points, "explanation": e.explanation,
             "rule": e.rule} for e in entries] == case["end_game"]

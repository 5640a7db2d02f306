"""check_board and check_players list every problem, each at its path in the contract JSON.

Boards are contract JSON turned into domain objects by the test loader, which converts
without judging, so a problem's path can be read straight off the JSON that broke it.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from collections.abc import Callable

import pytest

from tabletop_rules.downtown_farmers_market import (
    ExactCount,
    Ingredient,
    check_board,
    check_players,
    validate_board,
)
from tabletop_rules.downtown_farmers_market.json_form import board_from_dict, players_from_list
from tabletop_rules.problems import InvalidInputError, Path

from .boards import JsonDict, read_data

Edit = Callable[[JsonDict], object]


def golden() -> JsonDict:
    """A fresh copy of a well-formed standard board to break."""
    return copy.deepcopy(read_data("rulebook_standard_example.json")["board"])


def paths(board: JsonDict) -> list[Path]:
    return [problem.path for problem in check_board(board_from_dict(board))]


def set_grid(r: int, c: int, tile: list[str] | None) -> Edit:
    return lambda b: b["grid"][r].__setitem__(c, tile)


def set_field(side: str, i: int, field: str, value: object) -> Edit:
    return lambda b: b[side][i].__setitem__(field, value)


ROW, COLUMN = "row_challenges", "column_challenges"

ONE_PROBLEM: list[tuple[str, Edit, Path]] = [
    ("tile without ingredients", set_grid(1, 2, []), ("grid", 1, 2)),
    ("tile of four", set_grid(3, 0, ["egg"] * 4), ("grid", 3, 0)),
    ("three rows", lambda b: b["grid"].pop(), ("grid",)),
    ("five spaces in a row", lambda b: b["grid"][2].append(None), ("grid", 2)),
    ("three row challenges", lambda b: b[ROW].pop(), (ROW,)),
    ("five column challenges", lambda b: b[COLUMN].append(b[COLUMN][0]), (COLUMN,)),
    ("negative points", set_field(ROW, 0, "points", -1), (ROW, 0, "points")),
    ("points over 100", set_field(COLUMN, 3, "points", 101), (COLUMN, 3, "points")),
    ("exact count of nothing", set_field(COLUMN, 1, "counts", {}), (COLUMN, 1, "counts")),
    ("exact count of zero", set_field(COLUMN, 1, "counts", {"corn": 0, "carrot": 1}),
     (COLUMN, 1, "counts", "corn")),
    ("exact count over a line", set_field(COLUMN, 1, "counts", {"corn": 2, "carrot": 13}),
     (COLUMN, 1, "counts", "carrot")),
    ("any count of zero", set_field(ROW, 0, "count", 0), (ROW, 0, "count")),
    ("any count of 13", set_field(ROW, 0, "count", 13), (ROW, 0, "count")),
    ("total of 13", set_field(ROW, 1, "count", 13), (ROW, 1, "count")),
    ("forbid nothing", set_field(COLUMN, 2, "ingredients", []), (COLUMN, 2, "ingredients")),
    ("forbid twice", set_field(COLUMN, 2, "ingredients", ["cheese", "milk", "cheese"]),
     (COLUMN, 2, "ingredients", 2)),
    ("no sets", set_field(ROW, 2, "sets", []), (ROW, 2, "sets")),
    ("an empty set", set_field(ROW, 2, "sets", [["bread"], []]), (ROW, 2, "sets", 1)),
    ("a set of 13", set_field(ROW, 2, "sets", [["bread"] * 13]), (ROW, 2, "sets", 0)),
    ("13 sets", set_field(ROW, 2, "sets", [["bread"]] * 13), (ROW, 2, "sets")),
]


@pytest.mark.parametrize(("edit", "path"), [case[1:] for case in ONE_PROBLEM],
                         ids=[case[0] for case in ONE_PROBLEM])
def test_one_problem_at_its_path(edit: Edit, path: Path) -> None:
    board = golden()
    edit(board)
    problems = check_board(board_from_dict(board))
    assert [p.path for p in problems] == [path]
    assert problems[0].message


@pytest.mark.parametrize("edit", [
    set_grid(0, 0, ["egg"]), set_grid(0, 0, ["egg", "egg", "egg"]), set_grid(0, 0, None),
    set_field(ROW, 0, "points", 0), set_field(ROW, 0, "points", 100),
    set_field(ROW, 0, "count", 1), set_field(ROW, 0, "count", 12),
    set_field(COLUMN, 1, "counts", {"corn": 12}), set_field(ROW, 2, "sets", [["egg"] * 12]),
    set_field(ROW, 2, "sets", [["egg"] * 12] * 12),
], ids=["tile of one", "tile of three", "empty space", "0 points", "100 points", "count 1",
        "count 12", "exact count 12", "set of 12", "12 sets"])
def test_limits_are_accepted(edit: Edit) -> None:
    board = golden()
    edit(board)
    assert paths(board) == []


def test_too_many_sets_names_the_limit() -> None:
    board = golden()
    board[ROW][2]["sets"] = [["bread"], []] * 100
    [problem] = check_board(board_from_dict(board))
    assert problem.path == (ROW, 2, "sets")
    assert problem.message == "at most 12 sets (the limit); got 200"


def test_every_problem_is_reported_at_once() -> None:
    board = golden()
    board["grid"][1][2] = []
    board["grid"][3][0] = ["egg"] * 4
    board["grid"][2].append(["egg"] * 5)
    board[ROW][0].update(points=-1, count=13)
    board[ROW][2]["sets"] = [[], ["bread"] * 13]
    board[COLUMN][2]["ingredients"] = ["cheese", "cheese"]
    board[COLUMN].pop()
    assert Counter(paths(board)) == Counter([
        ("grid", 1, 2), ("grid", 2), ("grid", 2, 4), ("grid", 3, 0),
        (ROW, 0, "points"), (ROW, 0, "count"), (ROW, 2, "sets", 0), (ROW, 2, "sets", 1),
        (COLUMN,), (COLUMN, 2, "ingredients", 1)])


def test_exact_count_listing_an_ingredient_twice() -> None:
    """A JSON object cannot repeat a key, but a Board built in Python can."""
    board = board_from_dict(golden())
    twice = ExactCount(((Ingredient.CORN, 2), (Ingredient.CORN, 1)), 6)
    columns = (board.column_challenges[0], twice, *board.column_challenges[2:])
    board = dataclasses.replace(board, column_challenges=columns)
    assert [p.path for p in check_board(board)] == [(COLUMN, 1, "counts", "corn")]


def test_young_shopper_board_with_challenges() -> None:
    board = golden()
    board["mode"] = "young_shopper"
    board[COLUMN] = []
    assert paths(board) == [(ROW,)]


def test_validate_board_raises_with_every_pointer() -> None:
    board = golden()
    board["grid"][1][2] = []
    board[ROW][3]["points"] = 101
    with pytest.raises(InvalidInputError) as raised:
        validate_board(board_from_dict(board))
    assert [p.pointer for p in raised.value.problems] == ["/grid/1/2", "/row_challenges/3/points"]


def test_validate_board_returns_a_good_board() -> None:
    board = board_from_dict(golden())
    assert validate_board(board) is board


def players(*names: str) -> list[JsonDict]:
    return [{"name": name, "board": golden()} for name in names]


def player_paths(request: list[JsonDict]) -> list[Path]:
    return [problem.path for problem in check_players(players_from_list(request))]


@pytest.mark.parametrize(("request_players", "expected"), [
    (players("Ana"), []),
    (players("Ana", "Ben", "Cy", "Di"), []),
    (players("x" * 100), []),
    (players(), [("players",)]),
    (players("Ana", "Ben", "Cy", "Di", "Ed"), [("players",)]),
    (players(""), [("players", 0, "name")]),
    (players("Ana", "   "), [("players", 1, "name")]),
    (players("x" * 101), [("players", 0, "name")]),
    (players("Ana", "Ben", "Ana"), [("players", 2, "name")]),
], ids=["one", "four", "100-character name", "none", "five", "empty name", "blank name",
        "101-character name", "same name twice"])
def test_players(request_players: list[JsonDict], expected: list[Path]) -> None:
    assert player_paths(request_players) == expected


def test_players_problems_all_at_once_with_board_paths_nested() -> None:
    request = players("Ana", "", "Ana", "Di", "Ed")
    request[3]["board"]["grid"][0][0] = []
    request[4]["board"][COLUMN][1]["points"] = -5
    assert Counter(player_paths(request)) == Counter([
        ("players",), ("players", 1, "name"), ("players", 2, "name"),
        ("players", 3, "board", "grid", 0, 0),
        ("players", 4, "board", COLUMN, 1, "points")])


def test_players_on_mixed_modes_are_reported_with_the_other_problems() -> None:
    request = players("Ana", "", "Cy")
    for seat in (1, 2):
        request[seat]["board"] = {"mode": "young_shopper", "grid": request[seat]["board"]["grid"]}
    assert Counter(player_paths(request)) == Counter([
        ("players", 1, "name"), ("players", 1, "board", "mode"),
        ("players", 2, "board", "mode")])

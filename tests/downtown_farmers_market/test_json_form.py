"""The contract's JSON form read by the library: a document of the wrong shape is
refused with every problem at its path, never with a bare KeyError or TypeError."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from tabletop_rules.downtown_farmers_market.json_form import board_from_dict, players_from_list
from tabletop_rules.problems import InvalidInputError

from .boards import read_data
from .random_boards import Path, boards, garbled, players


def _refused_within(read: Any, document: Any, garbled_at: Path) -> None:
    """``read(document)`` reads it or refuses it with InvalidInputError, every problem
    inside the object or array the garbled part is in (where it was garbled, or a field
    of that object the garbling made wrong)."""
    try:
        read(document)
    except InvalidInputError as refused:
        for problem in refused.problems:
            assert problem.path[:len(garbled_at) - 1] == garbled_at[:-1], problem
            assert problem.message.code, problem


@given(garbled(boards()))
def test_a_garbled_board_is_refused_with_its_problems_where_they_are(
        case: tuple[Any, Path]) -> None:
    _refused_within(board_from_dict, *case)


@given(garbled(players()))
def test_garbled_players_are_refused_with_their_problems_where_they_are(
        case: tuple[Any, Path]) -> None:
    document, path = case
    _refused_within(players_from_list, document, ("players", *path))


def test_every_problem_is_reported_at_once_as_the_gateway_words_it() -> None:
    board = read_data("rulebook_standard_example.json")["board"]
    board["mode"] = "expert"
    board["grid"][0][1] = ["egg", "cabbage"]
    board["grid"][2] = None
    board["row_challenges"][0]["points"] = "4"
    board["row_challenges"][1] = {"points": 3}
    board["column_challenges"][0]["colour"] = "red"
    del board["column_challenges"][1]["points"]
    with pytest.raises(InvalidInputError) as raised:
        board_from_dict(board)
    assert {(p.pointer, p.message.code, str(p.message)) for p in raised.value.problems} == {
        ("/mode", "NOT_A_MODE",
         "'expert' is not a mode; expected one of standard, young_shopper"),
        ("/grid/0/1/1", "NOT_AN_INGREDIENT", "'cabbage' is not an ingredient; expected one "
                                             "of bread, carrot, corn, cheese, milk, egg"),
        ("/grid/2", "NOT_NULL", "may not be null"),
        ("/row_challenges/0/points", "EXPECTED_WHOLE_NUMBER", "expected a whole number"),
        ("/row_challenges/1/type", "GIVE_THE_CHALLENGE_TYPE",
         "give the challenge type; expected one of exact_count, forbidden, exact_count_any, "
         "exact_total, one_of_each, majority, per_set"),
        ("/column_challenges/0/colour", "UNKNOWN_FIELD",
         "not a field here; check the spelling against the API reference"),
        ("/column_challenges/1/points", "REQUIRED", "this field is required"),
    }

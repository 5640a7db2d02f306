"""The library's Downtown Farmers Market JSON form refuses what the gateway's schemas
refuse, with the same problems at the same pointers: one wording of the contract's JSON
shapes, whichever reads it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import marshmallow as ma
from hypothesis import given

from api_gateway.parsing import pointers
from api_gateway.resources.downtown_farmers_market import schemas
from tabletop_rules.downtown_farmers_market.json_form import board_from_dict, players_from_list
from tabletop_rules.problems import InvalidInputError

from ..downtown_farmers_market.random_boards import Path, boards, garbled, players


def _gateway(schema: ma.Schema, document: Any) -> Counter[tuple[str, str]]:
    try:
        schema.load(document)
    except ma.ValidationError as refused:
        return Counter((p.pointer, p.code.removesuffix("_LIKE"))  # a near miss, told so
                       for p in pointers(refused.messages))
    return Counter()


def _library(read: Any, document: Any) -> Counter[tuple[str, str]]:
    try:
        read(document)
    except InvalidInputError as refused:
        return Counter((p.pointer, p.message.code) for p in refused.problems)
    return Counter()


@given(garbled(boards()))
def test_a_garbled_board_has_the_gateways_problems(case: tuple[Any, Path]) -> None:
    document, _ = case
    assert _library(board_from_dict, document) == _gateway(schemas.BoardSchema(), document)


@given(garbled(players()))
def test_garbled_players_have_the_gateways_problems(case: tuple[Any, Path]) -> None:
    document, _ = case
    assert (_library(players_from_list, document)
            == _gateway(schemas.RankRequestSchema(), {"players": document}))

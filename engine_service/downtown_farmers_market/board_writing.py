"""Writing Downtown Farmers Market's boards, Food tiles and challenges: as messages, and as
their encodings joined from parts looked up (:mod:`.encodings`), for the answers that
carry them and the reader's check that a board came as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from referee.downtown_farmers_market.v1 import board_pb2
from tabletop_rules import downtown_farmers_market as dfm

from .. import wire
from .encodings import (
    BOARD_MODE,
    COLUMN_CHALLENGE_KEY,
    GRID_ROW_KEY,
    INGREDIENT_TO_PROTO,
    MODE_TO_PROTO,
    ROW_CHALLENGE_KEY,
    WIRE_OF_SPACE,
    WIRE_OF_TILE,
)

def ingredients_to_proto(ingredients: Sequence[dfm.Ingredient]
                          ) -> list[board_pb2.Ingredient.ValueType]:
    return [INGREDIENT_TO_PROTO[i] for i in ingredients]


def write_tile(tile: dfm.FoodTile, message: board_pb2.FoodTile) -> None:
    message.SetInParent()  # a tile of no ingredients is a tile still
    message.ingredients.extend(ingredients_to_proto(tile.ingredients))


def write_challenge(challenge: dfm.Challenge, message: board_pb2.Challenge) -> None:
    message.points = challenge.points
    body = getattr(message, challenge.kind)
    body.SetInParent()  # one_of_each has no fields: setting the oneof says which it is
    match challenge:
        case dfm.ExactCount(counts=counts):
            for ingredient, n in counts:
                body.counts.add(ingredient=INGREDIENT_TO_PROTO[ingredient], count=n)
        case dfm.Forbidden(ingredients=ingredients):
            body.ingredients.extend(ingredients_to_proto(ingredients))
        case dfm.ExactCountAny(count=count) | dfm.ExactTotal(count=count):
            body.count = count
        case dfm.Majority(ingredient=ingredient):
            body.ingredient = INGREDIENT_TO_PROTO[ingredient]
        case dfm.PerSet(sets=sets):
            for shown in sets:
                body.sets.add(ingredients=ingredients_to_proto(shown))


def board_to_wire(board: dfm.Board) -> bytes:
    """A board's encoding: each challenge's field looked up (:func:`_challenge_field`),
    each row's joined from its spaces' (:data:`WIRE_OF_SPACE`)."""
    try:
        rows = [b"".join([WIRE_OF_SPACE[None if space is None else space.ingredients]
                          for space in row]) for row in board.grid]
    except KeyError:  # a tile of no or over three ingredients (in no state the rules accept)
        rows = [b"".join([_space_to_wire(space) for space in row]) for row in board.grid]
    return b"".join([
        wire.number(BOARD_MODE, MODE_TO_PROTO[board.mode]),
        *[_challenge_field(ROW_CHALLENGE_KEY, challenge) for challenge in board.row_challenges],
        *[_challenge_field(COLUMN_CHALLENGE_KEY, challenge)
          for challenge in board.column_challenges],
        *[wire.part(GRID_ROW_KEY, row) for row in rows]])


@lru_cache(maxsize=4096)
def _challenge_field(side: bytes, challenge: dfm.Challenge) -> bytes:
    """A challenge's field in a board's ``side`` (its key), written once: boards keep
    showing the same challenge tiles (and a challenge is an immutable value)."""
    return wire.part(side, challenge_to_wire(challenge))


def challenge_to_wire(challenge: dfm.Challenge) -> bytes:
    message = board_pb2.Challenge()
    write_challenge(challenge, message)
    return message.SerializeToString()


def _space_to_wire(space: dfm.Space) -> bytes:
    """A grid space's encoding in a row, as :data:`SPACE_IN_ROW` holds it."""
    if space is None:
        return WIRE_OF_SPACE[None]
    data = WIRE_OF_SPACE.get(space.ingredients)
    if data is None:  # a tile of no or over three ingredients (in no state the rules accept)
        row = board_pb2.GridRow()
        write_tile(space, row.spaces.add().tile)
        data = row.SerializeToString()
    return data


def tile_to_wire(tile: dfm.FoodTile) -> bytes:
    """A Food tile's encoding, looked up in :data:`WIRE_OF_TILE` (a tile of no or over
    three ingredients, in no state the rules accept, is written field by field)."""
    data = WIRE_OF_TILE.get(tile.ingredients)
    if data is None:
        message = board_pb2.FoodTile()
        write_tile(tile, message)
        data = message.SerializeToString()
    return data

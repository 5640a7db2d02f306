"""What Downtown Farmers Market's converters look up by encoding: the enums' numbers both
ways, every well-formed Food tile and grid space by its encoding (and back), and a
board's field keys.

``SerializeToString()`` encodes a message canonically (fields by number, lists packed,
unknown fields last), so a tile, a grid space or a challenge can be looked up by its
bytes: the reader's fast path (:mod:`.message_reading`) and the writers
(:mod:`.board_writing`) meet here.
"""

from __future__ import annotations

from itertools import product

from referee.downtown_farmers_market.v1 import board_pb2, game_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.downtown_farmers_market.model import MAX_TILE_INGREDIENTS, MIN_TILE_INGREDIENTS

from .. import wire

INGREDIENT_FROM_PROTO: dict[int, dfm.Ingredient] = {
    board_pb2.Ingredient.Value(f"INGREDIENT_{i.name}"): i for i in dfm.Ingredient
}
MODE_FROM_PROTO: dict[int, dfm.Mode] = {
    board_pb2.Mode.Value(f"MODE_{m.name}"): m for m in dfm.Mode}
MODE_FROM_PROTO[board_pb2.MODE_UNSPECIFIED] = dfm.Mode.STANDARD
MODE_TO_PROTO = {m: board_pb2.Mode.Value(f"MODE_{m.name}") for m in dfm.Mode}
INGREDIENT_TO_PROTO = {i: board_pb2.Ingredient.ValueType(n)
                        for n, i in INGREDIENT_FROM_PROTO.items()}
ACTION_FROM_PROTO: dict[int, dfm.Action | None] = {
    game_pb2.Action.Value(f"ACTION_{a.name}"): a for a in dfm.Action}
ACTION_FROM_PROTO[game_pb2.ACTION_UNSPECIFIED] = None  # nothing expected: the game is over
ACTION_TO_PROTO = {a: n for n, a in ACTION_FROM_PROTO.items()}

TILE_BY_WIRE = {
    board_pb2.FoodTile(ingredients=numbers).SerializeToString():
        dfm.FoodTile(tuple(INGREDIENT_FROM_PROTO[n] for n in numbers))
    for size in range(MIN_TILE_INGREDIENTS, MAX_TILE_INGREDIENTS + 1)
    for numbers in product(INGREDIENT_TO_PROTO.values(), repeat=size)}
"""Every well-formed Food tile by its encoding (a few hundred)."""
SPACE_IN_ROW: dict[bytes, dfm.Space] = {
    board_pb2.GridRow(spaces=[board_pb2.GridSpace()]).SerializeToString(): None,
    **{board_pb2.GridRow(spaces=[board_pb2.GridSpace(tile=board_pb2.FoodTile.FromString(data))]
                         ).SerializeToString(): tile for data, tile in TILE_BY_WIRE.items()}}
"""Every grid space, empty or holding a well-formed tile, by its encoding in a row: its
tag, a one-byte length and the space."""
WIRE_OF_SPACE = {None if space is None else space.ingredients: data
                  for data, space in SPACE_IN_ROW.items()}
WIRE_OF_TILE = {tile.ingredients: data for data, tile in TILE_BY_WIRE.items()}
BOARD_MODE, ROW_CHALLENGE_KEY, COLUMN_CHALLENGE_KEY, GRID_ROW_KEY = (
    wire.key(board_pb2.Board.DESCRIPTOR, name)
    for name in ("mode", "row_challenges", "column_challenges", "grid"))
MODE_TAG, ROW_CHALLENGE_TAG, COLUMN_CHALLENGE_TAG, GRID_ROW_TAG = (
    key[0] for key in (BOARD_MODE, ROW_CHALLENGE_KEY, COLUMN_CHALLENGE_KEY, GRID_ROW_KEY))
"""A board's field keys, and as the one byte each is, read from a board's encoding."""


Encodings = dict[int, tuple[dfm.Board, bytes]]
"""Boards read from an encoding that is exactly what :func:`.board_writing.board_to_wire` writes for
them, by identity (each with the board, which keeps its identity from being reused): an
answer that holds such a board unchanged (most of a state after a move) writes it back
as it came, instead of writing it again."""

"""Downtown Farmers Market's smallest JSON parts: ingredients, Food tiles, grid spaces
(certain or doubtful), ingredient sets and counts."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from referee.downtown_farmers_market.v1 import board_pb2
from tabletop_rules.downtown_farmers_market.model import (
    GRID_SIZE,
    INGREDIENTS,
    MAX_LINE_INGREDIENTS,
    MAX_TILE_INGREDIENTS,
    MIN_TILE_INGREDIENTS,
)
from tabletop_rules.downtown_farmers_market.readings import (
    MAX_CANDIDATES,
    MIN_CANDIDATES,
)
from tabletop_rules.messages import template
from tabletop_rules.players import MAX_NAME_LENGTH, MAX_PLAYERS

from ....compiled import Compiler, Dump, Loader
from ....i18n import term_names
from ....fields import (
    INT32_MIN,
    Component,
    NamedKeys,
    ProtoEnum,
    whole_number,
)

INGREDIENT_NOUN = "an ingredient"

SEAT = (0, MAX_PLAYERS - 1)
"""A seat's range: an index in a game's players."""

LINE = (0, GRID_SIZE - 1)
"""A row's or column's range (0 is the top row, the left column)."""


INGREDIENT_NAMES = term_names(i.value for i in INGREDIENTS)
"""The ingredients as a player may write them: "Egg", "eggs", "œuf"."""


def ingredient(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(board_pb2.Ingredient, INGREDIENT_NOUN, spellings=INGREDIENT_NAMES, about=(
        "One of the six ingredients on the Food tiles. Written as a person writes it (any "
        "case and spacing, a plural, the French word) it is read as the one it names; "
        "answers give these names."), **kwargs)


def ingredient_list(**kwargs: Any) -> ma.fields.List[int]:
    return ma.fields.List(ingredient(), **kwargs)


def mode(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(board_pb2.Mode, "a mode", about=(
        "standard, or young_shopper: the mode for younger children, with no challenges "
        "(DFM-R9, DFM-R13)."), **kwargs)


def int32(**kwargs: Any) -> ma.fields.Integer:
    """Any whole number the wire carries: the rules say which seats, rows and rounds exist
    (``accepted``: the range they accept, documented)."""
    return whole_number(INT32_MIN, **kwargs)


def name(**kwargs: Any) -> ma.fields.String:
    return ma.fields.String(metadata={
        "minLength": 1, "maxLength": MAX_NAME_LENGTH,
        "description": "the player's name; distinct names in one request"}, **kwargs)


FOOD_TILE = Component("DowntownFoodTile", (
    f"A Food tile: the {MIN_TILE_INGREDIENTS} to {MAX_TILE_INGREDIENTS} ingredients it shows, "
    "repeats allowed, in any order (DFM-R15)."))


DOUBTS_ONLY_SCORED = template(
    "DFM_DOUBTFUL_SPACE_NOT_RANKED",
    "a space read in doubt (its candidates) is taken only by /score, which says what each "
    "reading scores; here give the one tile the space holds")
"""A doubtful space where only one reading can be ranked (the players' boards at /rank)."""


class FoodTileField(ma.fields.List[Any]):
    """A Food tile as the contract writes it: its 1 to 3 ingredients, repeats allowed."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"component": FOOD_TILE, "minItems": MIN_TILE_INGREDIENTS,
                    "maxItems": MAX_TILE_INGREDIENTS, **kwargs.pop("metadata", {})}
        super().__init__(ingredient(), metadata=metadata, **kwargs)

    def _deserialize(  # type: ignore[override]  # marshmallow types a List's value as list
            self, value: Any, attr: str | None, data: Any,
            **kwargs: Any) -> board_pb2.FoodTile:
        if isinstance(value, dict) and "candidates" in value:
            raise ma.ValidationError(DOUBTS_ONLY_SCORED())
        ingredients = super()._deserialize(value, attr, data, **kwargs)
        # ingredient() reads Ingredient numbers; List's type says any value, or None
        return board_pb2.FoodTile(ingredients=ingredients)  # type: ignore[arg-type]

    def _serialize(  # type: ignore[override]  # marshmallow types a List's value as list
            self, value: board_pb2.FoodTile | None, attr: str | None, obj: Any,
            **kwargs: Any) -> list[str] | None:
        return None if value is None else super()._serialize(value.ingredients, attr, obj,
                                                              **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        ingredients = compiler.deserializer(self, ma.fields.List)
        load, tile = ingredients.load, board_pb2.FoodTile
        return Loader(lambda value: tile(ingredients=load(value)), ingredients.depth)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return compiler.listed_attribute(self, "ingredients")


def tile_list(**kwargs: Any) -> ma.fields.List[Any]:
    return ma.fields.List(FoodTileField(), **kwargs)


class TileCandidatesSchema(ma.Schema):
    """A doubtful space of a board to score: the tiles a reading found possible there."""

    candidates = tile_list(required=True, metadata={
        "description": f"{MIN_CANDIDATES} to {MAX_CANDIDATES} Food tiles, the likeliest "
                       "first, each of 1 to 3 ingredients (another number is a 422 naming "
                       "the limit)", "minItems": MIN_CANDIDATES, "maxItems": MAX_CANDIDATES})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.GridSpace:
        return board_pb2.GridSpace(candidates=data["candidates"])


class SpaceField(ma.fields.Field[board_pb2.FoodTile | board_pb2.GridSpace]):
    """A space of a board to score: null, a Food tile, or a doubtful reading,
    ``{"candidates": [["bread"], ["corn"]]}`` (read as a ``GridSpace``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tile = FoodTileField()
        self.doubtful = TileCandidatesSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> board_pb2.FoodTile | board_pb2.GridSpace:
        if isinstance(value, dict):
            # its ValidationError nests under the space
            space: board_pb2.GridSpace = self.doubtful.load(value)
            return space
        tile: board_pb2.FoodTile = self.tile.deserialize(value, attr, data, **kwargs)
        return tile

    def compiled_load(self, compiler: Compiler) -> Loader:
        """A tile as a Food tile reads; the tile reader refuses a doubtful space (an
        object), which marshmallow then reads."""
        return compiler.deserializer(self.tile)

    def openapi_alternatives(self, converter: Any) -> dict[str, Any]:
        return {"oneOf": [{"type": "null"}, converter.field2property(self.tile),
                          converter.resolve_nested_schema(TileCandidatesSchema)]}


class IngredientSetField(ma.fields.List[Any]):
    """A set of ingredients (``IngredientSet``), as a list: read as the list of their
    values, written from the message."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(ingredient(), metadata={"minItems": 1,
                                                 "maxItems": MAX_LINE_INGREDIENTS}, **kwargs)

    def _serialize(  # type: ignore[override]  # marshmallow types a List's value as list
            self, value: board_pb2.IngredientSet | None, attr: str | None, obj: Any,
            **kwargs: Any) -> list[str] | None:
        return None if value is None else super()._serialize(value.ingredients, attr, obj,
                                                              **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        return compiler.deserializer(self, ma.fields.List)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return compiler.listed_attribute(self, "ingredients")


class IngredientCountsField(NamedKeys):
    """Ingredients and their counts (``IngredientCount`` entries), as an object: read
    as a dict of their values, written from the entries."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(keys=ingredient(),
                         values=whole_number(accepted=(1, MAX_LINE_INGREDIENTS)), **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return super()._serialize(None if value is None else _counts(value), attr, obj,
                                  **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        return compiler.deserializer(self, ma.fields.Dict)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        counts = compiler.serializer(self, ma.fields.Dict)
        return lambda value: None if value is None else counts(_counts(value))


def _counts(entries: Any) -> dict[int, int]:
    return {entry.ingredient: entry.count for entry in entries}

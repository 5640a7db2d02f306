"""Downtown Farmers Market's scoring answers as JSON: each line's score and the cells it
counted, a board's score and its readings in doubt, standings and rankings.

Every field is written in every answer (``required``), unless it says when."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from tabletop_rules.downtown_farmers_market.model import (
    GRID_SIZE,
    MAX_LINE_INGREDIENTS,
    MAX_TILE_INGREDIENTS,
)
from tabletop_rules.downtown_farmers_market.readings import (
    MAX_CANDIDATES,
    MAX_DOUBTFUL_CELLS,
    MIN_CANDIDATES,
)
from tabletop_rules.players import MAX_PLAYERS

from ....fields import (
    AnswerSchema,
    PresentNested,
    limits,
)
from ....versions import rules_version_field
from ....wording import ParamsField, code_field, templates_of
from .tiles import ingredient, ingredient_list, IngredientSetField, LINE, mode

def count(description: str | None = None) -> ma.fields.Integer:
    """A whole number of an answer, never negative."""
    return ma.fields.Integer(required=True, metadata={
        "minimum": 0, **({"description": description} if description else {})})


class CountedCellSchema(AnswerSchema):
    """A cell whose ingredients counted toward a line's verdict."""

    row = ma.fields.Integer(required=True, metadata={"description": "0 is the top row",
                                                     **limits(*LINE)})
    col = ma.fields.Integer(required=True, metadata={"description": "0 is the left column",
                                                     **limits(*LINE)})
    ingredients = ingredient_list(required=True, metadata={
        "description": "the ingredients of the cell's tile that counted",
        "minItems": 1, "maxItems": MAX_TILE_INGREDIENTS})


class LineScoreSchema(AnswerSchema):
    """One row or column: whether its challenge is met, its points, and why."""

    index = ma.fields.Integer(required=True, metadata={
        "description": "the row (top first) or column (left first)", **limits(*LINE)})
    met = ma.fields.Boolean(required=True, metadata={
        "description": "the challenge is met (young_shopper: the line scores points)"})
    points = count("the points the line earns")
    explanation = ma.fields.String(required=True, metadata={
        "description": "why, for the players"})
    rule = ma.fields.String(required=True, metadata={
        "description": "the ruling applied, e.g. DFM-R1"})
    code = code_field("DowntownLineExplanationCode", (
        "What a line's explanation says, for machines: one code per sentence, worded with "
        "the line's `params`."), templates_of("explanation", None, "DFM_"), required=True)
    params = ParamsField()
    cells = ma.fields.List(ma.fields.Nested(CountedCellSchema), required=True, metadata={
        "description": "the cells whose ingredients counted toward the verdict, along the "
                       "line, each with the ingredients of its tile that counted (exact_count: "
                       "the listed ingredients; forbidden: those present; exact_count_any: "
                       "the chosen one; exact_total and one_of_each: all; majority: the "
                       "challenge's ingredient and its rival; per_set: those the sets formed "
                       "use; young_shopper: the most frequent one)",
        "maxItems": GRID_SIZE})
    chosen_ingredient = ingredient(required=True, allow_none=True, metadata={
        "description": "exact_count_any: the ingredient of the player's choice (the first "
                       "of the six appearing exactly `count` times); young_shopper: the most "
                       "frequent ingredient, counted; null otherwise"})
    majority_ingredient = ingredient(required=True, allow_none=True, metadata={
        "description": "majority: the ingredient the line shows strictly more often than "
                       "every other (DFM-R1), which may be another than the challenge's; null "
                       "when none does, and for other challenges"})
    sets_formed = ma.fields.List(IngredientSetField(), required=True, metadata={
        "description": "per_set: each set formed, once for each time (their number times "
                       "the points per set is `points`); empty otherwise",
        "maxItems": MAX_LINE_INGREDIENTS})


class DoubtfulSpaceSchema(AnswerSchema):
    """What one doubtful space does to the total."""

    row = ma.fields.Integer(required=True, metadata={
        "description": "the space's row, 0 at the top", **limits(*LINE)})
    col = ma.fields.Integer(required=True, metadata={
        "description": "the space's column, 0 at the left", **limits(*LINE)})
    pointer = ma.fields.String(required=True, metadata={
        "description": "the space in the board, as a JSON Pointer (/grid/1/2)"})
    decides = ma.fields.Boolean(required=True, metadata={"description": (
        "true when the total depends on which candidate the space holds (for some reading "
        "of the other doubtful spaces): ask the player to check it; false: no candidate "
        "changes the total")})
    totals = ma.fields.List(ma.fields.Integer(metadata={"minimum": 0}), required=True,
                            metadata={
        "description": "for each candidate, in the request's order: the total with it "
                       "there and every other doubtful space at its likeliest",
        "minItems": MIN_CANDIDATES, "maxItems": MAX_CANDIDATES})


class BoardUncertaintySchema(AnswerSchema):
    """The totals a board with doubtful spaces may come to: what the readings other than
    the likeliest score."""

    readings = count("how many readings there are: the product of the spaces' candidate "
                     "counts")
    lowest_total = count("the lowest total of any reading")
    highest_total = count("the highest total of any reading")
    likely_total = count("the likeliest reading's total (each space at its first "
                         "candidate): the answer's total")
    spaces = ma.fields.List(ma.fields.Nested(DoubtfulSpaceSchema), required=True, metadata={
        "description": "each doubtful space, row by row", "minItems": 1,
        "maxItems": MAX_DOUBTFUL_CELLS})


class ScoreSchema(AnswerSchema):
    """A board's score, line by line (DFM-R1 to DFM-R9)."""

    mode = mode(required=True)
    total = count("the sum of the lines' points")
    complete = ma.fields.Boolean(required=True, metadata={
        "description": "false while any space is empty (the board is scored as it stands, "
                       "DFM-R8)"})
    challenges_met = count("lines whose challenge is met (a tie-break, DFM-R10)")
    best_challenge_points = count("the most points one met challenge earned; 0 if none "
                                  "(a tie-break, DFM-R10)")
    rows = ma.fields.List(ma.fields.Nested(LineScoreSchema), required=True, metadata={
        "description": "the rows, top to bottom", "minItems": GRID_SIZE,
        "maxItems": GRID_SIZE})
    columns = ma.fields.List(ma.fields.Nested(LineScoreSchema), required=True, metadata={
        "description": "the columns, left to right", "minItems": GRID_SIZE,
        "maxItems": GRID_SIZE})
    uncertainty = PresentNested(BoardUncertaintySchema, metadata={"description": (
        "only for a board with doubtful spaces: what the other readings score; the fields "
        "above then describe the likeliest reading")})
    rules_version = rules_version_field()


def place() -> ma.fields.Integer:
    return ma.fields.Integer(required=True, metadata={
        "description": "1 is first; ties share a place", **limits(1, MAX_PLAYERS)})


def winners() -> ma.fields.List[str]:
    return ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "every player in first place (more than one on a tie)",
        "minItems": 1, "maxItems": MAX_PLAYERS})


class StandingSchema(AnswerSchema):
    """A player's place, total and tie-breaks (DFM-R10)."""

    name = ma.fields.String(required=True)
    total = count()
    challenges_met = count()
    best_challenge_points = count()
    place = place()


def standings(description: str) -> ma.fields.List[Any]:
    return ma.fields.List(ma.fields.Nested(StandingSchema), metadata={
        "description": description, "minItems": 1, "maxItems": MAX_PLAYERS})


class RankingSchema(AnswerSchema):
    """The players ordered by place, and the winners."""

    standings = ma.fields.List(ma.fields.Nested(StandingSchema), required=True, metadata={
        "description": "the players ordered by place (DFM-R10)", "minItems": 1,
        "maxItems": MAX_PLAYERS})
    winners = winners()
    rules_version = rules_version_field()

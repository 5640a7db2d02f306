"""Downtown Farmers Market's answers on boards, written from rule values as their
encodings (:mod:`engine_service.wire`): scores and their readings, standings, and the
Challenge types.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from referee.downtown_farmers_market.v1 import board_pb2, challenge_types_pb2, scoring_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.downtown_farmers_market.challenge_types import ChallengeType, Values
from tabletop_rules.downtown_farmers_market.model import MAX_TILE_INGREDIENTS
from tabletop_rules.downtown_farmers_market.readings import Readings
from tabletop_rules.messages import Wording
from tabletop_rules.problems import json_pointer

from .. import wire
from ..wording import code_of, params_to_wire
from .board_writing import ingredients_to_proto
from .encodings import INGREDIENT_TO_PROTO, MODE_TO_PROTO

(_SCORE_MODE, _SCORE_TOTAL, _SCORE_COMPLETE, _SCORE_MET, _SCORE_BEST, _SCORE_ROWS,
 _SCORE_COLUMNS, _SCORE_RULES_VERSION) = (
    wire.key(scoring_pb2.BoardScore.DESCRIPTOR, name)
    for name in ("mode", "total", "complete", "challenges_met", "best_challenge_points",
                 "rows", "columns", "rules_version"))
(_LINE_INDEX, _LINE_MET, _LINE_POINTS, _LINE_EXPLANATION, _LINE_RULE, _LINE_CODE,
 _LINE_PARAMS, _LINE_CELLS, _LINE_CHOSEN, _LINE_MAJORITY, _LINE_SETS) = (
    wire.key(scoring_pb2.LineScore.DESCRIPTOR, name)
    for name in ("index", "met", "points", "explanation", "rule", "code", "params", "cells",
                 "chosen_ingredient", "majority_ingredient", "sets_formed"))
_CELL_ROW, _CELL_COL, _CELL_INGREDIENTS = (wire.key(scoring_pb2.CountedCell.DESCRIPTOR, name)
                                           for name in ("row", "col", "ingredients"))
_SET_INGREDIENTS = wire.key(board_pb2.IngredientSet.DESCRIPTOR, "ingredients")
_LINE_INDEX_FIELDS, _CELL_ROW_FIELDS, _CELL_COL_FIELDS = (
    wire.numbers(key) for key in (_LINE_INDEX, _CELL_ROW, _CELL_COL))
_INGREDIENTS_FIELD = {
    ingredients: wire.part(_CELL_INGREDIENTS,
                           bytes([INGREDIENT_TO_PROTO[i] for i in ingredients]))
    for size in range(1, MAX_TILE_INGREDIENTS + 1)
    for ingredients in product(dfm.INGREDIENTS, repeat=size)}
"""A counted cell's ingredients field, for each list of up to three (a tile's most): a
packed list of enum numbers, each one byte."""
_CELL_FIELDS = {
    (row, col, ingredients): wire.part(_LINE_CELLS, _CELL_ROW_FIELDS[row]
                                       + _CELL_COL_FIELDS[col] + field)
    for row in range(dfm.GRID_SIZE) for col in range(dfm.GRID_SIZE)
    for ingredients, field in _INGREDIENTS_FIELD.items()}
"""Each cell of a board that a line can count, as a ``cells`` field (a counted cell is the
(row, col, ingredients) tuple it is keyed by)."""
_LINE_POINTS_FIELDS = wire.numbers(_LINE_POINTS)
_LINE_MET_FIELD = wire.number(_LINE_MET, True)
_LINE_CHOSEN_FIELDS, _LINE_MAJORITY_FIELDS = (
    {i: wire.number(key, INGREDIENT_TO_PROTO[i]) for i in dfm.INGREDIENTS}
    for key in (_LINE_CHOSEN, _LINE_MAJORITY))


def board_score_to_wire(score: dfm.BoardScore) -> bytes:
    """A board score's encoding: each line's index and counted cells written, around the
    parts its verdict writes (:func:`_verdict_to_wire`, once per verdict)."""
    return b"".join([
        wire.number(_SCORE_MODE, MODE_TO_PROTO[score.mode]),
        wire.number(_SCORE_TOTAL, score.total),
        wire.number(_SCORE_COMPLETE, score.complete),
        wire.number(_SCORE_MET, score.challenges_met),
        wire.number(_SCORE_BEST, score.best_challenge_points),
        *[wire.part(_SCORE_ROWS, _line_to_wire(line)) for line in score.rows],
        *[wire.part(_SCORE_COLUMNS, _line_to_wire(line)) for line in score.columns],
        wire.number(_SCORE_RULES_VERSION, dfm.RULES_VERSION)])


def _line_to_wire(line: dfm.LineScore) -> bytes:
    head, tail = _verdict_to_wire(line.verdict)
    index = _LINE_INDEX_FIELDS.get(line.index)
    if index is None:
        index = wire.number(_LINE_INDEX, line.index)
    return b"".join([index, head, *map(_cell_to_wire, line.cells), tail])


def _cell_to_wire(cell: dfm.CountedCell) -> bytes:
    """A counted cell as a ``cells`` field: looked up for a 4x4 board's cells."""
    data = _CELL_FIELDS.get(cell)
    if data is None:  # a tile of more than three ingredients, or off the board: in no score
        ingredients = b"".join([wire.varint(INGREDIENT_TO_PROTO[i]) for i in cell.ingredients])
        data = wire.part(_LINE_CELLS, wire.number(_CELL_ROW, cell.row)
                         + wire.number(_CELL_COL, cell.col)
                         + wire.part(_CELL_INGREDIENTS, ingredients))
    return data


def _verdict_to_wire(verdict: dfm.LineVerdict) -> tuple[bytes, bytes]:
    """A verdict's fields of its ``LineScore``, before the cells (met to params:
    :func:`_head`) and after them (the ingredient chosen, the majority found, the
    sets formed): written once for each verdict and kept in its ``memo``, as the rules
    remember verdicts (a verdict seen again is the same object)."""
    known: tuple[bytes, bytes] | None = verdict.memo
    if known is not None:
        return known
    said = verdict.said
    # Only a Wording is remembered by what it says: words equal as text may differ in code.
    write_head = _remembered_head if isinstance(said, Wording) else _head
    head = write_head(said, verdict.met, verdict.points, verdict.rule)
    chosen, majority, made = verdict.chosen, verdict.majority, verdict.sets
    tail = b"".join([
        b"" if chosen is None else _LINE_CHOSEN_FIELDS[chosen],
        b"" if majority is None else _LINE_MAJORITY_FIELDS[majority],
        *[_set_field(one) for one in made]]
    ) if chosen is not None or majority is not None or made else b""
    verdict.memo = head, tail
    return head, tail


def _head(said: str | Wording, met: bool, points: int, rule: str) -> bytes:
    """A verdict's met, points, explanation, rule, code and params fields."""
    if isinstance(said, Wording):  # the words, code and params, with no Sentence made
        text, code, params = said.text(), said.code, said.params
    else:
        text, code, params = said, code_of(said), getattr(said, "params", {})
    points_field = _LINE_POINTS_FIELDS.get(points)
    if points_field is None:
        points_field = wire.number(_LINE_POINTS, points)
    return b"".join([
        _LINE_MET_FIELD if met else b"", points_field, wire.text(_LINE_EXPLANATION, text),
        _rule_and_code(rule, code), params_to_wire(_LINE_PARAMS, params)])


_remembered_head = lru_cache(maxsize=8192)(_head)
""":func:`_head`, written once for the words said, which many verdicts share (a per_set
line's verdict is its own, for the sets it formed, but its words are those of every line
forming as many)."""


@lru_cache(maxsize=256)
def _rule_and_code(rule: str, code: str) -> bytes:
    return wire.text(_LINE_RULE, rule) + wire.text(_LINE_CODE, code)


@lru_cache(maxsize=1024)
def _set_field(made: tuple[dfm.Ingredient, ...]) -> bytes:
    """A set formed, as a ``sets_formed`` field."""
    return wire.part(_LINE_SETS, wire.part(_SET_INGREDIENTS, bytes(
        [INGREDIENT_TO_PROTO[i] for i in made])) if made else b"")


_SCORE_ANSWER = wire.key(service_pb2.ScoreBoardResponse.DESCRIPTOR, "score")
_SCORE_UNCERTAINTY = wire.key(scoring_pb2.BoardScore.DESCRIPTOR, "uncertainty")


def scored_board_to_wire(score: dfm.BoardScore, readings: Readings | None) -> bytes:
    """The answer to ScoreBoard: the score, and with ``readings`` (a board transcribed with
    doubts) the totals its other readings would give."""
    uncertainty = b"" if readings is None else wire.message(
        _SCORE_UNCERTAINTY, _readings_to_proto(readings))
    return wire.part(_SCORE_ANSWER, board_score_to_wire(score) + uncertainty)


def _readings_to_proto(readings: Readings) -> scoring_pb2.BoardUncertainty:
    return scoring_pb2.BoardUncertainty(
        readings=readings.count, lowest_total=readings.lowest_total,
        highest_total=readings.highest_total, likely_total=readings.likely_total,
        spaces=[scoring_pb2.DoubtfulSpace(row=cell.row, col=cell.col,
                                          pointer=json_pointer(cell.path),
                                          decides=cell.decides, totals=cell.totals)
                for cell in readings.cells])


def standings_to_proto(ranking: dfm.Ranking) -> list[scoring_pb2.Standing]:
    return [scoring_pb2.Standing(name=s.name, total=s.score.total,
                                 challenges_met=s.score.challenges_met,
                                 best_challenge_points=s.score.best_challenge_points,
                                 place=s.place) for s in ranking.standings]


def ranking_to_wire(ranking: dfm.Ranking) -> bytes:
    """The answer to RankPlayers (a few fields a player: built as a message)."""
    return service_pb2.RankPlayersResponse(
        standings=standings_to_proto(ranking), winners=ranking.winners,
        rules_version=dfm.RULES_VERSION).SerializeToString()


def challenge_types_to_wire(types: Sequence[ChallengeType]) -> bytes:
    """The answer to ListChallengeTypes: the challenge types, the ingredients their
    parameters name, and the rules' version."""
    return service_pb2.ListChallengeTypesResponse(
        challenge_types=[challenge_types_pb2.ChallengeType(
            type=t.type, rule=t.rule, description=t.description,
            parameters=[challenge_types_pb2.ChallengeParameter(
                name=p.name, description=p.description, values=_values_to_proto(p.values))
                for p in t.parameters]) for t in types],
        ingredients=ingredients_to_proto(dfm.INGREDIENTS),
        rules_version=dfm.RULES_VERSION).SerializeToString()


def _values_to_proto(values: Values) -> challenge_types_pb2.ParameterValues:
    bounds = {name: getattr(values, name) for name in ("minimum", "maximum", "min_items",
                                                       "max_items")
              if getattr(values, name) is not None}
    return challenge_types_pb2.ParameterValues(
        kind=challenge_types_pb2.ValueKind.Value(f"VALUE_KIND_{values.kind.upper()}"),
        unique_items=values.unique,
        items=_values_to_proto(values.items) if values.items else None, **bounds)

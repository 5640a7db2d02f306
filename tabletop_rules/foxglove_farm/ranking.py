"""Ranking players' towns at the end of a game, with the rulebook's tie-breaks (FF-R16)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import standings
from ..players import name_problems, seats_problem
from ..problems import Problem
from .model import Town
from .scoring import TownScore, score_town

RANKING_RULE = "FF-R16"
Standing = standings.Standing[TownScore]
Ranking = standings.Ranking[TownScore]


def tie_break_key(score: TownScore) -> tuple[int, ...]:
    """Most points; then fewest goods left; then most tiles; then shared (FF-R16)."""
    return (score.total, -score.goods_remaining, score.tile_count)


def rank_towns(players: Sequence[tuple[str, Town]]) -> Ranking:
    """Score and place each ``(name, town)``: players :func:`check_players` accepts, with
    towns :func:`.check_town` accepts."""
    return standings.rank([(name, score_town(town)) for name, town in players],
                          tie_break_key)


def check_players(names: Sequence[str | None]) -> list[Problem]:
    """What is wrong with the players of a ranking, given by name in seat order (``None``
    for a name a reader could not read): 1 to 4 of them, each named, names distinct.
    Their towns are :func:`.check_town`'s."""
    seats = seats_problem(len(names))
    return [seats] if seats is not None else name_problems(names)

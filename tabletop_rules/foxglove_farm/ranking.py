"""Ranking players' towns at the end of a game, with the rulebook's tie-breaks (FF-R16)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..problems import InvalidInputError, Problem, quoted
from .. import standings
from ._json import read_list, read_object, read_str, unknown_keys
from .catalog import Catalog
from .model import Town
from .scoring import TownScore, score_town
from .town import parse_town

RANKING_RULE = "FF-R16"
MAX_PLAYERS = 4
MAX_NAME_LENGTH = 100


Standing = standings.Standing[TownScore]
Ranking = standings.Ranking[TownScore]


def ranking_to_dict(ranking: Ranking) -> dict[str, Any]:
    """The contract's answer for ``/rank``."""
    return {"standings": [{"name": s.name, "total": s.score.total,
                           "goods_remaining": s.score.goods_remaining,
                           "tile_count": s.score.tile_count, "place": s.place}
                          for s in ranking.standings],
            "winners": list(ranking.winners)}


def tie_break_key(score: TownScore) -> tuple[int, ...]:
    """Most points; then fewest goods left; then most tiles; then shared (FF-R16)."""
    return (score.total, -score.goods_remaining, score.tile_count)


def rank_towns(players: Sequence[tuple[str, Town]]) -> Ranking:
    """Score and place each ``(name, town)``."""
    return standings.rank([(name, score_town(town)) for name, town in players],
                          tie_break_key)


def parse_players(data: object, *, catalog: Catalog | None = None) -> list[tuple[str, Town]]:
    """The ``/rank`` body ``{"players": [{"name", "town"}, ...]}`` (1 to 4 players with
    distinct names); raises :class:`InvalidInputError` with every problem."""
    problems: list[Problem] = []
    players: list[tuple[str, Town]] = []
    obj = read_object(data, (), problems, "an object with \"players\"")
    items = read_list(obj.get("players"), ("players",), problems, "a list of players") \
        if obj is not None else None
    if obj is not None:
        unknown_keys(obj, ("players",), (), problems, "a rank request")
    if items is not None and not 1 <= len(items) <= MAX_PLAYERS:
        problems.append(Problem(("players",), f"rank 1 to {MAX_PLAYERS} players; "
                                f"got {len(items)}"))
        items = None
    names: set[str] = set()
    for i, item in enumerate(items or ()):
        path = ("players", i)
        entry = read_object(item, path, problems, "a player object {\"name\", \"town\"}")
        if entry is None:
            continue
        unknown_keys(entry, ("name", "town"), path, problems, "a player")
        name = read_str(entry.get("name"), (*path, "name"), problems, "a name",
                        MAX_NAME_LENGTH)
        if name is not None and not name.strip():
            problems.append(Problem((*path, "name"), "a name has 1 to "
                                    f"{MAX_NAME_LENGTH} characters"))
        elif name is not None and name in names:
            problems.append(Problem((*path, "name"), f"{quoted(name)} is named twice; give each "
                                    "player a distinct name"))
        if name is not None:
            names.add(name)
        try:
            town = parse_town(entry.get("town"), catalog=catalog, path=(*path, "town"))
        except InvalidInputError as error:
            problems.extend(error.problems)
            continue
        if name is not None:
            players.append((name, town))
    if problems:
        raise InvalidInputError(problems)
    return players

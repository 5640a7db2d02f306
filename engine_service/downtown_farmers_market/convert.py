"""The one place that converts between Downtown Farmers Market protobufs and rule values.

Reading a message collects every problem (unset or unknown enum values, a challenge with
no type) with its path in the contract's JSON form, then the rules' own validation adds
what is wrong with the board as a whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from google.protobuf.internal.containers import RepeatedScalarFieldContainer

from referee.downtown_farmers_market.v1 import board_pb2, scoring_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.problems import InvalidInputError, Path, Problem

_INGREDIENT_FROM_PROTO = {
    board_pb2.Ingredient.Value(f"INGREDIENT_{i.name}"): i for i in dfm.Ingredient
}
_MODE_FROM_PROTO = {board_pb2.Mode.Value(f"MODE_{m.name}"): m for m in dfm.Mode}
_MODE_FROM_PROTO[board_pb2.MODE_UNSPECIFIED] = dfm.Mode.STANDARD
_MODE_TO_PROTO = {m: board_pb2.Mode.Value(f"MODE_{m.name}") for m in dfm.Mode}


class _Reader:
    """Reads messages into rule values, noting problems instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def ingredient(self, value: int, path: Path) -> dfm.Ingredient:
        ingredient = _INGREDIENT_FROM_PROTO.get(value)
        if ingredient is None:
            names = ", ".join(i.value for i in dfm.Ingredient)
            self.problems.append(Problem(path, f"not an ingredient; expected one of {names}"))
            return dfm.Ingredient.BREAD  # a placeholder; the problem already refuses the input
        return ingredient

    def ingredients(self, values: RepeatedScalarFieldContainer[int] | Sequence[int],
                    path: Path) -> tuple[dfm.Ingredient, ...]:
        return tuple(self.ingredient(v, (*path, i)) for i, v in enumerate(values))

    def mode(self, value: int, path: Path) -> dfm.Mode:
        mode = _MODE_FROM_PROTO.get(value)
        if mode is None:
            self.problems.append(Problem(path, "not a mode; expected standard or young_shopper"))
            return dfm.Mode.STANDARD
        return mode

    def challenge(self, message: board_pb2.Challenge, path: Path) -> dfm.Challenge | None:
        kind = message.WhichOneof("kind")
        points = message.points
        if kind == "exact_count":
            counts = []
            for entry in message.exact_count.counts:
                ingredient = self.ingredient(entry.ingredient, (*path, "counts"))
                counts.append((ingredient, entry.count))
            return dfm.ExactCount(tuple(counts), points)
        if kind == "forbidden":
            return dfm.Forbidden(self.ingredients(message.forbidden.ingredients,
                                                  (*path, "ingredients")), points)
        if kind == "exact_count_any":
            return dfm.ExactCountAny(message.exact_count_any.count, points)
        if kind == "exact_total":
            return dfm.ExactTotal(message.exact_total.count, points)
        if kind == "one_of_each":
            return dfm.OneOfEach(points)
        if kind == "majority":
            return dfm.Majority(self.ingredient(message.majority.ingredient,
                                                (*path, "ingredient")), points)
        if kind == "per_set":
            return dfm.PerSet(tuple(self.ingredients(s.ingredients, (*path, "sets", i))
                                    for i, s in enumerate(message.per_set.sets)), points)
        self.problems.append(Problem((*path, "type"), "the challenge has no type; expected one "
                                     "of exact_count, forbidden, exact_count_any, exact_total, "
                                     "one_of_each, majority, per_set"))
        return None

    def board(self, message: board_pb2.Board, path: Path) -> dfm.Board:
        grid = tuple(
            tuple(
                dfm.FoodTile(self.ingredients(space.tile.ingredients, (*path, "grid", r, c)))
                if space.HasField("tile") else None
                for c, space in enumerate(row.spaces)
            )
            for r, row in enumerate(message.grid)
        )
        sides = {}
        for side in ("row_challenges", "column_challenges"):
            read = [self.challenge(ch, (*path, side, i))
                    for i, ch in enumerate(getattr(message, side))]
            sides[side] = tuple(ch for ch in read if ch is not None)
        return dfm.Board(grid, sides["row_challenges"], sides["column_challenges"],
                         self.mode(message.mode, (*path, "mode")))

    def done(self, check_whole: Callable[[], list[Problem]] | None = None) -> None:
        """Raise every problem found; the whole-input checks run only on what read cleanly."""
        if not self.problems and check_whole:
            self.problems.extend(check_whole())
        if self.problems:
            raise InvalidInputError(self.problems)


def board_from_proto(message: board_pb2.Board, path: Path = ()) -> dfm.Board:
    """A well-formed board, or :class:`InvalidInputError` listing every problem."""
    reader = _Reader()
    board = reader.board(message, path)
    reader.done(lambda: [p.under(*path) for p in dfm.check_board(board)])
    return board


def players_from_proto(messages: Sequence[scoring_pb2.PlayerBoard]
                       ) -> list[tuple[str, dfm.Board]]:
    """Named boards to rank (the request's ``players``), or every problem reading them;
    :func:`~tabletop_rules.downtown_farmers_market.rank_boards` checks them as a whole."""
    reader = _Reader()
    players = [(m.name, reader.board(m.board, ("players", i, "board")))
               for i, m in enumerate(messages)]
    reader.done()
    return players


def board_score_to_proto(score: dfm.BoardScore) -> scoring_pb2.BoardScore:
    def lines(scored: tuple[dfm.LineScore, ...]) -> list[scoring_pb2.LineScore]:
        return [scoring_pb2.LineScore(index=line.index, met=line.met, points=line.points,
                                      explanation=line.verdict.explanation,
                                      rule=line.verdict.rule) for line in scored]

    return scoring_pb2.BoardScore(
        mode=_MODE_TO_PROTO[score.mode], total=score.total, complete=score.complete,
        challenges_met=score.challenges_met,
        best_challenge_points=score.best_challenge_points,
        rows=lines(score.rows), columns=lines(score.columns),
    )


def standings_to_proto(ranking: dfm.Ranking) -> list[scoring_pb2.Standing]:
    return [scoring_pb2.Standing(name=s.name, total=s.score.total,
                                 challenges_met=s.score.challenges_met,
                                 best_challenge_points=s.score.best_challenge_points,
                                 place=s.place) for s in ranking.standings]

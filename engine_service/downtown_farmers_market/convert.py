"""The one place that converts between Downtown Farmers Market protobufs and rule values.

Reading a message on the shared collecting reader (:mod:`engine_service.reading`) collects
every problem (unset or unknown enum values, a challenge or move with no type) with its
path in the contract's JSON form, then the rules' own validation adds what is wrong with
the board, state, setup or move as a whole, so the rules are only ever called on input
they accept.

Boards and Food tiles are first read straight from their encoding, which is many times
faster than walking their fields: ``SerializeToString()`` encodes a message canonically
(fields by number, lists packed, unknown fields last), so a tile, a grid space or a
challenge is looked up by its bytes. That fast path reads only what the reader would
read without a problem, into the same values; at anything else it gives up, and the
reader reads the message field by field, naming every problem.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from google.protobuf.internal.containers import RepeatedScalarFieldContainer

from referee.downtown_farmers_market.v1 import board_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import challenge_types_pb2, game_pb2, scoring_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.downtown_farmers_market.challenge_types import ChallengeType, Values
from tabletop_rules.downtown_farmers_market.model import MAX_TILE_INGREDIENTS, MIN_TILE_INGREDIENTS
from tabletop_rules.downtown_farmers_market.readings import (
    DoubtfulCell,
    Readings,
    check_readings,
)
from tabletop_rules.problems import Path, Problem, json_pointer

from ..reading import Reader

_INGREDIENT_FROM_PROTO = {
    board_pb2.Ingredient.Value(f"INGREDIENT_{i.name}"): i for i in dfm.Ingredient
}
_MODE_FROM_PROTO = {board_pb2.Mode.Value(f"MODE_{m.name}"): m for m in dfm.Mode}
_MODE_FROM_PROTO[board_pb2.MODE_UNSPECIFIED] = dfm.Mode.STANDARD
_MODE_TO_PROTO = {m: board_pb2.Mode.Value(f"MODE_{m.name}") for m in dfm.Mode}
_INGREDIENT_TO_PROTO = {i: n for n, i in _INGREDIENT_FROM_PROTO.items()}
_ACTION_FROM_PROTO: dict[int, dfm.Action | None] = {
    game_pb2.Action.Value(f"ACTION_{a.name}"): a for a in dfm.Action}
_ACTION_FROM_PROTO[game_pb2.ACTION_UNSPECIFIED] = None  # nothing expected: the game is over
_ACTION_TO_PROTO = {a: n for n, a in _ACTION_FROM_PROTO.items()}
_INGREDIENT_NAMES = ", ".join(i.value for i in dfm.Ingredient)

_TILE_BY_WIRE = {
    board_pb2.FoodTile(ingredients=numbers).SerializeToString():
        dfm.FoodTile(tuple(_INGREDIENT_FROM_PROTO[n] for n in numbers))
    for size in range(MIN_TILE_INGREDIENTS, MAX_TILE_INGREDIENTS + 1)
    for numbers in product(_INGREDIENT_FROM_PROTO, repeat=size)}
"""Every well-formed Food tile by its encoding (a few hundred)."""
_SPACE_IN_ROW: dict[bytes, dfm.Space] = {
    board_pb2.GridRow(spaces=[board_pb2.GridSpace()]).SerializeToString(): None,
    **{board_pb2.GridRow(spaces=[board_pb2.GridSpace(tile=board_pb2.FoodTile.FromString(data))]
                         ).SerializeToString(): tile for data, tile in _TILE_BY_WIRE.items()}}
"""Every grid space, empty or holding a well-formed tile, by its encoding in a row: its
tag, a one-byte length and the space."""
_WIRE_OF_SPACE = {None if space is None else space.ingredients: data
                  for data, space in _SPACE_IN_ROW.items()}
_WIRE_TAG = {name: field.number << 3 | (2 if field.type == field.TYPE_MESSAGE else 0)
             for name, field in board_pb2.Board.DESCRIPTOR.fields_by_name.items()}
_MODE, _ROW_CHALLENGE, _COLUMN_CHALLENGE, _GRID_ROW = (
    _WIRE_TAG[name] for name in ("mode", "row_challenges", "column_challenges", "grid"))


ONLY_SCORED = ("only a board being scored may list candidates for a space; give the tile "
               "it holds")
TILE_OR_CANDIDATES = "a space holds a tile or its candidates, not both"


class _Reader(Reader):
    """Reads messages into rule values, noting problems instead of stopping at the first.

    What cannot be read stands in as a placeholder the rules' checks find nothing wrong
    with (an unknown ingredient as bread, a challenge whose type or ingredients cannot be
    read as one with its points only), so those checks still judge the rest; where a
    placeholder could mislead them (an unknown mode: how many challenges a board has),
    the paths they must not judge are noted in :attr:`unjudged`."""

    def __init__(self) -> None:
        super().__init__()
        self.unjudged: set[Path] = set()

    def judged(self, problems: Sequence[Problem], path: Path) -> list[Problem]:
        """``problems`` (of the rules' check, relative to ``path``) under ``path``, less
        those at a path not to judge."""
        placed = [p.under(*path) for p in problems]
        return [p for p in placed if p.path not in self.unjudged]

    def ingredient(self, value: int, path: Path) -> dfm.Ingredient:
        # BREAD is a placeholder for an unknown value; the problem already refuses the input
        return self.enum(value, _INGREDIENT_FROM_PROTO, dfm.Ingredient.BREAD, path,
                         "an ingredient", f"one of {_INGREDIENT_NAMES}")

    def ingredients(self, values: RepeatedScalarFieldContainer[int] | Sequence[int],
                    path: Path) -> tuple[dfm.Ingredient, ...]:
        known = tuple([i for i in map(_INGREDIENT_FROM_PROTO.get, values) if i is not None])
        if len(known) == len(values):  # each a known ingredient: no problem, no path to name
            return known
        return tuple(self.ingredient(v, (*path, i)) for i, v in enumerate(values))

    def tile(self, message: board_pb2.FoodTile, path: Path) -> dfm.FoodTile:
        tile = _TILE_BY_WIRE.get(message.SerializeToString())
        if tile is not None:
            return tile
        return dfm.FoodTile(self.ingredients(message.ingredients, path))

    def tiles(self, messages: Sequence[board_pb2.FoodTile], path: Path
              ) -> tuple[dfm.FoodTile, ...]:
        return tuple(self.tile(m, (*path, i)) for i, m in enumerate(messages))

    def mode(self, value: int, path: Path) -> dfm.Mode:
        return self.enum(value, _MODE_FROM_PROTO, dfm.Mode.STANDARD, path, "a mode",
                         "standard or young_shopper")

    def challenge(self, message: board_pb2.Challenge, path: Path) -> dfm.Challenge:
        """The challenge; one that cannot be read stands in as one with its points only
        (its problems are said; the rules still judge its points and count it)."""
        before = len(self.problems)
        challenge = self._challenge(message, path)
        if challenge is None or len(self.problems) > before:
            return dfm.OneOfEach(message.points)
        return challenge

    def _challenge(self, message: board_pb2.Challenge, path: Path) -> dfm.Challenge | None:
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
        self.problem((*path, "type"), "the challenge has no type; expected one of exact_count, "
                     "forbidden, exact_count_any, exact_total, one_of_each, majority, per_set")
        return None

    def board(self, message: board_pb2.Board, path: Path,
              doubts: list[DoubtfulCell] | None = None) -> dfm.Board:
        """The board; a space listing candidates is read into ``doubts`` (given only for
        a board being scored), holding its likeliest candidate on the board."""
        board = _board_from_wire(message.SerializeToString())
        if board is not None:
            return board
        grid = tuple(
            tuple(self.space(space, (*path, "grid", r, c), doubts)
                  for c, space in enumerate(row.spaces))
            for r, row in enumerate(message.grid))
        sides = {side: tuple(self.challenge(ch, (*path, side, i))
                             for i, ch in enumerate(getattr(message, side)))
                 for side in ("row_challenges", "column_challenges")}
        before = len(self.problems)
        mode = self.mode(message.mode, (*path, "mode"))
        if len(self.problems) > before:  # whether it has challenges depends on the mode
            self.unjudged.update({(*path, side) for side in (*sides, "mode")})
        return dfm.Board(grid, sides["row_challenges"], sides["column_challenges"], mode)

    def space(self, message: board_pb2.GridSpace, path: Path,
              doubts: list[DoubtfulCell] | None) -> dfm.Space:
        if not message.candidates:
            return self.tile(message.tile, path) if message.HasField("tile") else None
        if doubts is None:
            self.problem((*path, "candidates"), ONLY_SCORED)
            return None
        if message.HasField("tile"):
            self.problem(path, TILE_OR_CANDIDATES)
        *_, row, col = path
        candidates = self.tiles(message.candidates, (*path, "candidates"))
        doubts.append(DoubtfulCell(int(row), int(col), candidates))
        return candidates[0]

    def players(self, messages: Sequence[game_pb2.Player], path: Path
                ) -> tuple[dfm.Player, ...]:
        return tuple(dfm.Player(m.name, self.board(m.board, (*path, i, "board")))
                     for i, m in enumerate(messages))

    def action(self, value: int, path: Path) -> dfm.Action | None:
        return self.enum(value, _ACTION_FROM_PROTO, None, path, "an action",
                         "take, discard, reveal or none (the game is over)")

    def state(self, message: game_pb2.GameState, path: Path) -> dfm.GameState:
        """The state as sent; ``game_over`` is output only, so it is not read."""
        return dfm.GameState(
            rules_version=message.rules_version, mode=self.mode(message.mode, (*path, "mode")),
            players=self.players(message.players, (*path, "players")),
            face_up=self.tiles(message.face_up, (*path, "face_up")),
            pile_count=message.pile_count,
            discards=self.tiles(message.discards, (*path, "discards")),
            round=message.round, first_player=message.first_player,
            current_player=message.current_player,
            expected=self.action(message.expected, (*path, "expected")))

    def setup(self, message: game_pb2.Setup, path: Path) -> dfm.Setup:
        """The setup as sent; an unset rules version is the one this referee plays."""
        return dfm.Setup(mode=self.mode(message.mode, (*path, "mode")),
                         players=self.players(message.players, (*path, "players")),
                         first_player=message.first_player,
                         face_up=self.tiles(message.face_up, (*path, "face_up")),
                         rules_version=message.rules_version or dfm.RULES_VERSION)

    def move(self, message: game_pb2.Move, path: Path) -> dfm.Move:
        kind = message.WhichOneof("action")
        if kind == "take":
            take = message.take
            return dfm.TakeTile(take.player, self.tile(take.tile, (*path, "tile")), take.row,
                                take.col)
        if kind == "discard":
            return dfm.DiscardTile(message.discard.player,
                                   self.tile(message.discard.tile, (*path, "tile")))
        if kind == "reveal":
            return dfm.RevealTiles(self.tiles(message.reveal.tiles, (*path, "tiles")))
        self.problem((*path, "action"), "the move has no action; expected one of take, "
                     "discard, reveal")
        return dfm.RevealTiles(())  # a placeholder; the problem already refuses the input


def _board_from_wire(data: bytes) -> dfm.Board | None:
    """The board ``data`` encodes, if it is one that :meth:`_Reader.board` reads without a
    problem; otherwise None. A board's encoding is its fields in turn, each a one-byte
    tag then, for the mode, its one-byte number, for a challenge or a grid row, a one-byte
    length and the part; a longer number or length, or another field, is for the reader."""
    mode: dfm.Mode | None = dfm.Mode.STANDARD  # an unset mode is standard
    sides: dict[int, list[dfm.Challenge]] = {_ROW_CHALLENGE: [], _COLUMN_CHALLENGE: []}
    grid = []
    at, end = 0, len(data)
    while at + 1 < end:
        tag, size = data[at], data[at + 1]
        if (tag | size) & 0x80:
            return None
        if tag == _MODE:
            mode = _MODE_FROM_PROTO.get(size)
            at += 2
            continue
        part = data[at + 2:at + 2 + size]
        at += 2 + size
        if tag == _GRID_ROW:
            row = _row_from_wire(part)
            if row is None:
                return None
            grid.append(row)
        elif tag in sides:
            challenge = _challenge_from_wire(part)
            if challenge is None:
                return None
            sides[tag].append(challenge)
        else:
            return None
    if mode is None or at != end:
        return None
    return dfm.Board(tuple(grid), tuple(sides[_ROW_CHALLENGE]), tuple(sides[_COLUMN_CHALLENGE]),
                     mode)


def _row_from_wire(data: bytes) -> tuple[dfm.Space, ...] | None:
    """The spaces a grid row's encoding holds, each looked up in :data:`_SPACE_IN_ROW`;
    None at anything else."""
    row = []
    at, end = 0, len(data)
    while at + 1 < end:
        field = data[at:at + 2 + data[at + 1]]
        if field not in _SPACE_IN_ROW:
            return None
        row.append(_SPACE_IN_ROW[field])
        at += len(field)
    return tuple(row) if at == end else None


@lru_cache(maxsize=4096)
def _challenge_from_wire(data: bytes) -> dfm.Challenge | None:
    """The challenge ``data`` encodes, None if the reader finds a problem with it: read
    once, as boards keep showing the same challenge tiles."""
    reader = _Reader()
    challenge = reader.challenge(board_pb2.Challenge.FromString(data), ())
    return None if reader.problems else challenge


def board_from_proto(message: board_pb2.Board, path: Path = ()) -> dfm.Board:
    """A well-formed board, or :class:`InvalidInputError` listing every problem: what
    the wire gets wrong and what the rules find wrong with the rest, at once."""
    reader = _Reader()
    board = reader.board(message, path)
    reader.done(lambda: reader.judged(dfm.check_board(board), path), partial=True)
    return board


def transcription_from_proto(message: board_pb2.Board, path: Path = ()
                             ) -> tuple[dfm.Board, tuple[DoubtfulCell, ...]]:
    """A board to score and its doubtful spaces, each holding its likeliest candidate on
    the board (:func:`.check_readings`), or every problem with them at once."""
    reader = _Reader()
    doubts: list[DoubtfulCell] = []
    board = reader.board(message, path, doubts)
    reader.done(lambda: reader.judged(check_readings(board, doubts), path), partial=True)
    return board, tuple(doubts)


def players_from_proto(messages: Sequence[scoring_pb2.PlayerBoard]
                       ) -> list[tuple[str, dfm.Board]]:
    """Named boards to rank (the request's ``players``), or every problem reading them;
    :func:`~tabletop_rules.downtown_farmers_market.rank_boards` checks them as a whole."""
    reader = _Reader()
    players = [(m.name, reader.board(m.board, ("players", i, "board")))
               for i, m in enumerate(messages)]
    modes = {("players", i, "board", "mode") for i in range(len(players))}
    if reader.unjudged & modes:  # the boards' modes cannot be compared
        reader.unjudged |= modes
    # a clean read is checked once, by rank_boards; one with problems hears of all now
    reader.done(lambda: reader.judged(dfm.check_players(players), ())
                if reader.problems else [], partial=True)
    return players


def setup_from_proto(message: game_pb2.Setup) -> dfm.Setup:
    """A setup :func:`.new_game` accepts (the request's ``setup``), or every problem."""
    reader = _Reader()
    setup = reader.setup(message, ("setup",))
    reader.done(lambda: [p.under("setup") for p in dfm.check_setup(setup)])
    return setup


def state_from_proto(message: game_pb2.GameState) -> dfm.GameState:
    """A state play can go on from (the request's ``state``), or every problem."""
    reader = _Reader()
    state = reader.state(message, ("state",))
    reader.done(lambda: [p.under("state") for p in dfm.check_state(state)])
    return state


def state_and_move_from_proto(state_message: game_pb2.GameState, move_message: game_pb2.Move
                              ) -> tuple[dfm.GameState, dfm.Move]:
    """A valid state and a well-formed move to judge in it (the request's ``state`` and
    ``move``), or every problem with either."""
    reader = _Reader()
    state = reader.state(state_message, ("state",))
    move = reader.move(move_message, ("move",))
    reader.done(lambda: [p.under("state") for p in dfm.check_state(state)]
                + [p.under("move") for p in dfm.check_move(move, len(state.players))])
    return state, move


def log_from_proto(setup_message: game_pb2.Setup, move_messages: Sequence[game_pb2.Move]
                   ) -> tuple[dfm.Setup, list[dfm.Move]]:
    """A game's log (the request's ``setup`` and ``moves``), or every problem in it.

    Every move's shape is checked up front, so a malformed move is refused even when an
    earlier illegal move would stop the replay before it.
    """
    reader = _Reader()
    setup = reader.setup(setup_message, ("setup",))
    moves = [reader.move(m, ("moves", i)) for i, m in enumerate(move_messages)]
    reader.done(lambda: [p.under("setup") for p in dfm.check_setup(setup)]
                + [p.under("moves", i) for i, move in enumerate(moves)
                   for p in dfm.check_move(move, len(setup.players))])
    return setup, moves


def _ingredients_to_proto(ingredients: Sequence[dfm.Ingredient]) -> list[int]:
    return [_INGREDIENT_TO_PROTO[i] for i in ingredients]


def _write_tile(tile: dfm.FoodTile, message: board_pb2.FoodTile) -> None:
    message.SetInParent()  # a tile of no ingredients is a tile still
    message.ingredients.extend(_ingredients_to_proto(tile.ingredients))


def _write_challenge(challenge: dfm.Challenge, message: board_pb2.Challenge) -> None:
    message.points = challenge.points
    body = getattr(message, challenge.kind)
    body.SetInParent()  # one_of_each has no fields: setting the oneof says which it is
    match challenge:
        case dfm.ExactCount(counts=counts):
            for ingredient, n in counts:
                body.counts.add(ingredient=_INGREDIENT_TO_PROTO[ingredient], count=n)
        case dfm.Forbidden(ingredients=ingredients):
            body.ingredients.extend(_ingredients_to_proto(ingredients))
        case dfm.ExactCountAny(count=count) | dfm.ExactTotal(count=count):
            body.count = count
        case dfm.Majority(ingredient=ingredient):
            body.ingredient = _INGREDIENT_TO_PROTO[ingredient]
        case dfm.PerSet(sets=sets):
            for shown in sets:
                body.sets.add(ingredients=_ingredients_to_proto(shown))


def _write_board(board: dfm.Board, message: board_pb2.Board) -> None:
    message.mode = _MODE_TO_PROTO[board.mode]
    for challenges, side in ((board.row_challenges, message.row_challenges),
                             (board.column_challenges, message.column_challenges)):
        for challenge in challenges:
            _write_challenge(challenge, side.add())
    for row in board.grid:  # each space's encoding looked up, each row's parsed at once
        message.grid.add().MergeFromString(b"".join([_space_to_wire(space) for space in row]))


def _space_to_wire(space: dfm.Space) -> bytes:
    """A grid space's encoding in a row, as :data:`_SPACE_IN_ROW` holds it."""
    if space is None:
        return _WIRE_OF_SPACE[None]
    data = _WIRE_OF_SPACE.get(space.ingredients)
    if data is None:  # a tile of no or over three ingredients (in no state the rules accept)
        row = board_pb2.GridRow()
        _write_tile(space, row.spaces.add().tile)
        data = row.SerializeToString()
    return data


def state_to_proto(state: dfm.GameState, message: game_pb2.GameState | None = None
                   ) -> game_pb2.GameState:
    """``state`` written into ``message`` (an answer's field, so nothing is copied), or
    into a new message."""
    if message is None:
        message = game_pb2.GameState()
    message.rules_version = state.rules_version
    message.mode = _MODE_TO_PROTO[state.mode]
    for player in state.players:
        _write_board(player.board, message.players.add(name=player.name).board)
    for tiles, written in ((state.face_up, message.face_up), (state.discards, message.discards)):
        for tile in tiles:
            _write_tile(tile, written.add())
    message.pile_count = state.pile_count
    message.round = state.round
    message.first_player = state.first_player
    message.current_player = state.current_player
    message.expected = _ACTION_TO_PROTO[state.expected]
    message.game_over = state.game_over
    return message


def move_to_proto(move: dfm.Move, message: game_pb2.Move | None = None) -> game_pb2.Move:
    """``move`` written into ``message`` (an answer's field, so nothing is copied), or
    into a new message."""
    if message is None:
        message = game_pb2.Move()
    if isinstance(move, dfm.TakeTile):
        take = message.take
        take.player, take.row, take.col = move.player, move.row, move.col
        _write_tile(move.tile, take.tile)
    elif isinstance(move, dfm.DiscardTile):
        message.discard.player = move.player
        _write_tile(move.tile, message.discard.tile)
    else:
        message.reveal.SetInParent()  # a reveal of no tiles is a reveal still
        for tile in move.tiles:
            _write_tile(tile, message.reveal.tiles.add())
    return message


def violations_to_proto(violations: Sequence[dfm.Violation], move_path: Path
                        ) -> list[game_pb2.Violation]:
    """``move_path`` is where the move sits in the request (``("move",)``, ``("moves", 7)``)."""
    return [game_pb2.Violation(reason=v.reason.value, rule=v.rule, message=v.message,
                               pointer=json_pointer((*move_path, *v.path)))
            for v in violations]


def verdict_to_proto(verdict: dfm.Verdict) -> service_pb2.ValidateMoveResponse:
    answer = service_pb2.ValidateMoveResponse(
        legal=verdict.legal, violations=violations_to_proto(verdict.violations, ("move",)))
    if verdict.next_state is not None:
        state_to_proto(verdict.next_state, answer.next_state)
    return answer


def replay_to_proto(result: dfm.ReplayResult) -> service_pb2.ReplayGameResponse:
    answer = service_pb2.ReplayGameResponse(legal=result.legal)
    state_to_proto(result.state, answer.state)
    if result.illegal_index is not None:
        answer.illegal_index = result.illegal_index
        answer.violations.extend(violations_to_proto(result.violations,
                                                     ("moves", result.illegal_index)))
    if result.ranking is not None:
        answer.standings.extend(standings_to_proto(result.ranking))
        answer.winners.extend(result.ranking.winners)
        by_name = {s.name: s.score for s in result.ranking.standings}
        for player in result.state.players:
            board_score_to_proto(by_name[player.name], answer.scores.add())
    return answer


def board_score_to_proto(score: dfm.BoardScore, message: scoring_pb2.BoardScore) -> None:
    """Write ``score`` into ``message``, an answer's field (so nothing is copied)."""
    message.mode = _MODE_TO_PROTO[score.mode]
    message.total = score.total
    message.complete = score.complete
    message.challenges_met = score.challenges_met
    message.best_challenge_points = score.best_challenge_points
    message.rules_version = dfm.RULES_VERSION
    for lines, scored in ((message.rows, score.rows), (message.columns, score.columns)):
        for line in scored:
            verdict = line.verdict
            lines.add(index=line.index, met=verdict.met, points=verdict.points,
                      explanation=verdict.explanation, rule=verdict.rule)


def readings_to_proto(readings: Readings, message: scoring_pb2.BoardUncertainty) -> None:
    """Write ``readings`` into ``message``, an answer's field (so nothing is copied)."""
    message.readings = readings.count
    message.lowest_total = readings.lowest_total
    message.highest_total = readings.highest_total
    message.likely_total = readings.likely_total
    for cell in readings.cells:
        message.spaces.add(row=cell.row, col=cell.col, pointer=json_pointer(cell.path),
                           decides=cell.decides, totals=cell.totals)


def standings_to_proto(ranking: dfm.Ranking) -> list[scoring_pb2.Standing]:
    return [scoring_pb2.Standing(name=s.name, total=s.score.total,
                                 challenges_met=s.score.challenges_met,
                                 best_challenge_points=s.score.best_challenge_points,
                                 place=s.place) for s in ranking.standings]


def challenge_types_to_proto(types: Sequence[ChallengeType]
                             ) -> service_pb2.ListChallengeTypesResponse:
    """The challenge types, the ingredients their parameters name, and the rules' version."""
    return service_pb2.ListChallengeTypesResponse(
        challenge_types=[challenge_types_pb2.ChallengeType(
            type=t.type, rule=t.rule, description=t.description,
            parameters=[challenge_types_pb2.ChallengeParameter(
                name=p.name, description=p.description, values=_values_to_proto(p.values))
                for p in t.parameters]) for t in types],
        ingredients=_ingredients_to_proto(dfm.INGREDIENTS), rules_version=dfm.RULES_VERSION)


def _values_to_proto(values: Values) -> challenge_types_pb2.ParameterValues:
    bounds = {name: getattr(values, name) for name in ("minimum", "maximum", "min_items",
                                                       "max_items")
              if getattr(values, name) is not None}
    return challenge_types_pb2.ParameterValues(
        kind=challenge_types_pb2.ValueKind.Value(f"VALUE_KIND_{values.kind.upper()}"),
        unique_items=values.unique,
        items=_values_to_proto(values.items) if values.items else None, **bounds)

"""Checking a town: every problem with its contents, each with its path.

:func:`check_town` is every check of a :class:`Town`'s contents, whoever built it (the
contract's JSON form, the engine's protobuf reader, a library user): each tile's
coordinates, goods counts, trail shape and holdings (FF-R19), then the town as a whole
(its starting tile, FF-R12; one group, FF-R9). Reading a town is :mod:`.transcription`'s.
Paths are into the town's JSON form (``("tiles", 3, "goods", "sheep")``).

Bounds (absurd input, not game rules): rows and columns from -1000 to 1000
(:data:`MAX_COORDINATE`), at most 120 tiles (:data:`MAX_TILES`: a real
town has some 30 to 45; the planner's worst case is benchmarked at this size), a goods count at most
1000 before the slot check (:data:`MAX_GOODS_COUNT`), a score track from 0 to 10000
(:data:`.MAX_SCORE_TRACK`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from operator import itemgetter

from ..messages import choice, template
from ..problems import InvalidInputError, Path, Problem
from ..json_reading import out_of_range
from .catalog import undocumented_problem
from .model import (
    GOODS,
    MAX_SCORE_TRACK,
    NO_GOODS,
    SIDES,
    BuildingTile,
    Goods,
    Position,
    Tile,
    TrailTile,
    Town,
    trail_shape,
)

MAX_COORDINATE = 1000
MAX_TILES = 120
MAX_GOODS_COUNT = 1000

PLACEMENT_RULE = "FF-R9"
HOLDING_RULE = "FF-R19"
START_RULE = "FF-R12"

# The problems' sentences, each named by its code, its format fields its params.
POSITION_NOT_KEY = template("FF_POSITION_NOT_KEY", "the tile's position does not match its key")
TOO_MANY_TILES = template("FF_TOO_MANY_TILES", "at most {limit} tiles; got {count}")
OVERLAPS = template("FF_OVERLAPS", "overlaps tile {first}: both are at row {row}, col {col}; a "
                                   "position holds one tile")
_TRAIL_SHAPES = ("a trail is open on two opposite sides (straight), two neighbouring sides "
                 "(curved) or three sides (T-junction)")
BAD_TRAIL = choice(
    "FF_BAD_TRAIL", lambda p: "some" if p["sides"] else "none",
    some="no trail tile is open on {sides:term}: " + _TRAIL_SHAPES,
    none="no trail tile is open on none: " + _TRAIL_SHAPES)
CANNOT_HOLD = choice(
    "FF_CANNOT_HOLD", lambda p: "some" if p["holds"] else "none",
    some="a {building} cannot hold {good:term}: a building holds only the goods its effects "
         "depict, here {holds:term} ({rule}); is this a misreading?",
    none="a {building} cannot hold {good:term}: a building holds only the goods its effects "
         "depict, here none ({rule}); is this a misreading?")
TOO_MANY_GOODS = template(
    "FF_TOO_MANY_GOODS", "a {building} has {slots:# goods slot|# goods slots}; this one shows "
    "{total} goods ({rule}); is this a misreading?")
NO_STARTING_HALF = choice(
    "FF_NO_STARTING_HALF", lambda p: str(p["half"]),
    forest="the town has no forest: every town has the starting tile, a forest and a mine "
           "side by side ({rule})",
    mine="the town has no mine: every town has the starting tile, a forest and a mine side "
         "by side ({rule})")
SECOND_STARTING_HALF = choice(
    "FF_SECOND_STARTING_HALF", lambda p: str(p["half"]),
    forest="a second forest: a town has one starting tile, so exactly one forest and one mine "
           "({rule})",
    mine="a second mine: a town has one starting tile, so exactly one forest and one mine "
         "({rule})")
STARTING_HALVES_APART = template(
    "FF_STARTING_HALVES_APART", "the mine (row {row}, col {col}) must be orthogonally next to "
    "the forest (row {forest_row}, col {forest_col}): they are the two halves of the starting "
    "tile ({rule})")
CUT_OFF = choice(
    "FF_CUT_OFF", lambda p: "alone" if p["others"] == 0 else "group",
    alone="this tile (row {row}, col {col}) does not touch the rest of the town: every tile is "
          "placed orthogonally next to a tile of the town ({rule}), so a town is one group",
    group="this tile (row {row}, col {col}) and {others:# other|# others} beside it do not "
          "touch the rest of the town: every tile is placed orthogonally next to a tile of the "
          "town ({rule}), so a town is one group")


def validate_town(town: Town) -> Town:
    """``town`` itself if well formed; otherwise :class:`InvalidInputError`."""
    problems = check_town(town)
    if problems:
        raise InvalidInputError(problems)
    return town


# -- checking a town -------------------------------------------------------------------

def check_town(town: Town, *, index: Mapping[Position, int] | None = None,
               complete: bool = True, unread: Mapping[Position, int] | None = None
               ) -> list[Problem]:
    """Every problem with a town's contents, all at once.

    Paths index the tiles in ``index`` (each position's place in the request; by default
    the order of ``town.tiles``). ``unread`` holds the squares of tiles a reader could
    not make (a misspelt building, a trail of unknown sides; it has said why) with their
    index: the town as a whole is judged with a tile on each, so a misreading does not
    hide a tile cut off from the town. ``complete=False`` says the reader could not read
    the tile list at all (and reported why): the tiles are checked, but not the town as
    a whole, which would only report what is missing. A tile whose own problems are
    reported still counts for the whole-town checks, except a tile off the table
    (beyond :data:`MAX_COORDINATE`), whose position is itself the problem.
    """
    problems: list[Problem] = []
    if index is None:
        index = {position: i for i, position in enumerate(town.tiles)}
    score_track = out_of_range(town.score_track, ("score_track",), 0, MAX_SCORE_TRACK)
    if score_track is not None:
        problems.append(score_track)
    too_many = too_many_tiles(len(town.tiles), ())
    if too_many is not None:
        problems.append(too_many)
        return problems
    for position, tile in town.tiles.items():
        if tile.position != position:
            problems.append(Problem(("tiles", index[position]), POSITION_NOT_KEY()))
        elif not _sound(tile):
            problems.extend(_check_tile(tile, ("tiles", index[position])))
    if complete:
        squares = index if not unread else dict(sorted(  # in the request's order
            {**unread, **index}.items(), key=itemgetter(1)))  # a tile read wins a square
        if problems or unread:  # a tile off the table is not judged for contact
            squares = {p: i for p, i in squares.items() if not check_position(p, ())}
        problems.extend(_check_starting_tile(town, index, misread=bool(unread)))
        problems.extend(_check_one_group(squares))
    return problems


def too_many_tiles(count: int, path: Path) -> Problem | None:
    """The problem with a town of ``count`` tiles, if it has more than :data:`MAX_TILES`:
    a reader that finds it leaves them unread."""
    if count <= MAX_TILES:
        return None
    return Problem((*path, "tiles"), TOO_MANY_TILES(limit=MAX_TILES, count=count))


def check_position(position: Position, path: Path) -> list[Problem]:
    """A row or column beyond the table (:data:`MAX_COORDINATE`), as a tile's or a move's."""
    if -MAX_COORDINATE <= position.row <= MAX_COORDINATE and \
            -MAX_COORDINATE <= position.col <= MAX_COORDINATE:
        return []  # the common case, without building the paths
    found = (out_of_range(value, (*path, name), -MAX_COORDINATE, MAX_COORDINATE)
             for name, value in (("row", position.row), ("col", position.col)))
    return [problem for problem in found if problem is not None]


def check_overlapping(tile: Tile, path: Path, first: int) -> list[Problem]:
    """A tile a reader found at the position of an earlier one (``first``): its own
    numbers, or what it is and where it overlaps. It stays out of the town."""
    return _numbers_of(tile, path) or [*_check_kind(tile, path), Problem(path, OVERLAPS(
        first=first, row=tile.position.row, col=tile.position.col))]


def _sound(tile: Tile) -> bool:
    """True when :func:`_check_tile` finds nothing wrong with ``tile``, judged the quick
    way (most tiles are sound; for the others, it says what is wrong)."""
    row, col = tile.position
    if not (-MAX_COORDINATE <= row <= MAX_COORDINATE and -MAX_COORDINATE <= col <= MAX_COORDINATE):
        return False
    if isinstance(tile, TrailTile):
        return trail_shape(tile.sides) is not None
    building, goods = tile.building, tile.goods
    if not building.documented or min(goods) < 0 or max(goods) > MAX_GOODS_COUNT:
        return False
    total = sum(goods)
    if total > building.slots:
        return False
    if total:
        depicts = building.depicts
        for good, n in zip(GOODS, goods):
            if n and good not in depicts:
                return False
    return True


def _check_tile(tile: Tile, path: Path) -> list[Problem]:
    """A tile's numbers first; then, if they are sound, what it is."""
    return _numbers_of(tile, path) or _check_kind(tile, path)


def _numbers_of(tile: Tile, path: Path) -> list[Problem]:
    goods = tile.goods if isinstance(tile, BuildingTile) else NO_GOODS
    return check_numbers(tile.position, goods, path)


def check_numbers(position: Position, goods: Goods, path: Path) -> list[Problem]:
    """Where a tile is, and how many goods it holds: checked also for a tile a reader
    could not make."""
    problems = check_position(position, path)
    if 0 <= min(goods) and max(goods) <= MAX_GOODS_COUNT:  # the common case, in C
        return problems
    problems.extend(p for good, n in goods.items()
                    if (p := out_of_range(n, (*path, "goods", good.value), 0,
                                          MAX_GOODS_COUNT)) is not None)
    return problems


def _check_kind(tile: Tile, path: Path) -> list[Problem]:
    """A trail's shape, or what a building holds (FF-R19)."""
    if isinstance(tile, BuildingTile):
        return check_holding(tile, path)
    if trail_shape(tile.sides) is None:
        return [_bad_trail(tile, (*path, "trail"))]
    return []


def _bad_trail(tile: TrailTile, path: Path) -> Problem:
    return Problem(path, BAD_TRAIL(sides=tuple(s.value for s in SIDES if s in tile.sides)))


def check_holding(tile: BuildingTile, path: Path) -> list[Problem]:
    """FF-R19: a building holds only goods its effects depict, and no more than its slots
    (also asked of a doubtful count's readings)."""
    building = tile.building
    if not building.documented:
        return [undocumented_problem(building, (*path, "building"))]
    total = sum(tile.goods)
    if not total and building.slots >= 0:
        return []  # holds nothing: the common case, without a look at each type
    problems: list[Problem] = []
    for good, _count in tile.goods.items():
        if good not in building.depicts:
            holds = tuple(g.value for g in sorted(building.depicts, key=lambda g: g.index))
            problems.append(Problem((*path, "goods", good.value), CANNOT_HOLD(
                building=building.name, good=good.value, holds=holds, rule=HOLDING_RULE)))
    if total > building.slots:
        problems.append(Problem((*path, "goods"), TOO_MANY_GOODS(
            building=building.name, slots=building.slots, total=total, rule=HOLDING_RULE)))
    return problems


def _check_starting_tile(town: Town, index: Mapping[Position, int], *, misread: bool
                         ) -> list[Problem]:
    """One forest and one mine side by side (FF-R12). A missing half is not reported
    when some tile could not be ``misread`` (read): it may be that half, misspelt."""
    problems: list[Problem] = []
    halves: dict[str, list[Position]] = {"forest": [], "mine": []}
    for tile in town.buildings:
        if tile.building.id in halves:
            halves[tile.building.id].append(tile.position)
    for name, found in halves.items():
        if not found and not misread:
            problems.append(Problem(("tiles",), NO_STARTING_HALF(half=name, rule=START_RULE)))
        for extra in found[1:]:
            problems.append(Problem(("tiles", index[extra], "building"),
                                    SECOND_STARTING_HALF(half=name, rule=START_RULE)))
    if len(halves["forest"]) == 1 and len(halves["mine"]) == 1:
        forest, mine = halves["forest"][0], halves["mine"][0]
        if mine not in forest.neighbours():
            problems.append(Problem(("tiles", index[mine]), STARTING_HALVES_APART(
                row=mine.row, col=mine.col, forest_row=forest.row, forest_col=forest.col,
                rule=START_RULE)))
    return problems


def _check_one_group(squares: Mapping[Position, int]) -> list[Problem]:
    """Every tile was placed orthogonally next to the town (FF-R9): the occupied
    ``squares`` (each with its tile's index in the request) form one connected group."""
    remaining = set(squares)
    groups: list[list[tuple[int, int]]] = []
    for start in squares:
        if start not in remaining:
            continue
        remaining.discard(start)
        group: list[tuple[int, int]] = [start]
        queue: deque[tuple[int, int]] = deque(group)
        while queue:
            row, col = queue.popleft()
            # plain tuples: they hash and compare as the Positions they name, and cost less
            for nxt in ((row - 1, col), (row, col + 1), (row + 1, col), (row, col - 1)):
                if nxt in remaining:
                    remaining.discard(nxt)
                    group.append(nxt)
                    queue.append(nxt)
        groups.append(group)
    if len(groups) <= 1:
        return []
    main = max(groups, key=len)
    problems = []
    for group in groups:
        if group is main:
            continue
        first = min((Position(*p) for p in group), key=squares.__getitem__)
        problems.append(Problem(("tiles", squares[first]), CUT_OFF(
            row=first.row, col=first.col, others=len(group) - 1, rule=PLACEMENT_RULE)))
    return problems

"""Reading a town, whatever its form: what every reader of one shares.

The contract's JSON form (:func:`.json_form.parse_town`) and the engine's protobuf reader
each report what only their form can get wrong (a wrong JSON type, an unknown enum
value) and share the rest of reading here: the request's catalog (:func:`town_catalog`),
building ids (:func:`find_building`), trail sides (:func:`trail_sides`) and the tiles by
position (:func:`read_tiles`), with the messages a player reads whichever form they
sent. What the town read gets wrong is :func:`.check_town`'s to say.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from ..messages import template
from ..problems import InvalidInputError, Path, Problem, quoted
from ..json_reading import too_long
from .catalog import Building, Catalog
from .catalog_format import parse_catalog
from .model import NO_GOODS, Goods, Position, Side, Tile
from .town import check_numbers, check_overlapping, too_many_tiles

MAX_BUILDING_ID_LENGTH = 100

# The problems' sentences, each named by its code, its format fields its params.
ONE_KIND = template("FF_ONE_KIND",
                    'a tile has either "building" (a building id) or "trail" (its open sides)')
BOTH_KINDS = template("BUILDING_OR_TRAIL", 'a tile has either "building" (a building id) or '
                                           '"trail" (its open sides), not both')
"""Found by the gateway's town schema first, over REST; by the engine's reader over gRPC."""
TRAIL_HOLDS_NO_GOODS = template("FF_TRAIL_HOLDS_NO_GOODS",
                                "a trail tile holds no goods; goods sit on building tiles")
SIDE_TWICE = template("FF_SIDE_TWICE", "side {side} is listed twice")
UNKNOWN_BUILDING = template(
    "FF_UNKNOWN_BUILDING", "{building} is not a building the catalog knows (a tile it lacks "
    "can be defined in the request's \"catalog\")")
UNKNOWN_BUILDING_LIKE = template(
    "FF_UNKNOWN_BUILDING_LIKE", "{building} is not a building the catalog knows; did you mean "
    "{like:or}? (a tile it lacks can be defined in the request's \"catalog\")")
""":data:`UNKNOWN_BUILDING` for a name close to those of buildings the catalog knows
(``like``: their printed names, the closest first)."""

Item = TypeVar("Item")


def town_catalog(data: object, base: Catalog, path: Path, problems: list[Problem]
                 ) -> tuple[Catalog, frozenset[str]]:
    """``base`` with the town's ``catalog`` (``data`` in the catalog format; ``None`` for
    none) applied, and the ids whose definition was refused: their problems are recorded
    under ``path`` + ``catalog``, and tiles using them are not reported again."""
    if data is None:
        return base, frozenset()
    try:
        return parse_catalog(data, base, (*path, "catalog")), frozenset()
    except InvalidInputError as error:
        problems.extend(error.problems)
        return base, frozenset(data) if isinstance(data, Mapping) else frozenset()


def find_building(building_id: str, catalog: Catalog, refused: frozenset[str], path: Path,
                  problems: list[Problem]) -> Building | None:
    """The building a tile names by its id or as a person writes it (``"Charcoal Kiln"``,
    :class:`.Names`), or ``None`` with the problem recorded (none for an id whose request
    definition was already refused)."""
    problem = too_long(building_id, path, MAX_BUILDING_ID_LENGTH)
    if problem is not None:
        problems.append(problem)
        return None
    if building_id in refused:
        return None
    building = catalog.get(building_id)
    if building is None:
        named = catalog.names.find(building_id)
        if named is not None:
            return catalog[named]
        problems.append(_unknown_building(building_id, catalog, path))
    return building


def trail_sides(sides: Iterable[Side], path: Path, problems: list[Problem]
                ) -> frozenset[Side] | None:
    """A trail's open sides, or ``None`` with a problem for a side listed twice."""
    seen: set[Side] = set()
    for i, side in enumerate(sides):
        if side in seen:
            problems.append(Problem((*path, i), SIDE_TWICE(side=side.value)))
            return None
        seen.add(side)
    return frozenset(seen)


class Unread(NamedTuple):
    """A tile a reader could not make (it has said why), with the numbers it did read:
    the rules still check those, as they would a tile's. ``placed`` says its position
    could be read: it then still occupies that square, so the town as a whole is judged
    with it there (a misspelt building does not hide a tile cut off from the town)."""

    position: Position
    goods: Goods = NO_GOODS
    placed: bool = True


@dataclass(frozen=True, slots=True)
class ReadTiles:
    """A request's tiles as read: those made, by position, each position's index in the
    request, the squares of tiles that could not be made (:class:`Unread`, by position,
    with their index: :func:`.check_town`'s ``unread``), and whether every tile was read
    at all (``complete``: false when the list was refused whole)."""

    tiles: dict[Position, Tile]
    index: dict[Position, int]
    unread: dict[Position, int]
    complete: bool = True


def read_tiles(items: Sequence[Item], read: Callable[[Item, Path], Tile | Unread | None],
               path: Path, problems: list[Problem]) -> ReadTiles:
    """A request's tiles, each read with ``read``. More than :data:`MAX_TILES` are
    refused unread; a tile at a position already taken is a problem, checked on its own
    and left out, as is one ``read`` could not make (whose square is kept)."""
    too_many = too_many_tiles(len(items), path)
    if too_many is not None:
        problems.append(too_many)
        return ReadTiles({}, {}, {}, complete=False)
    placed: dict[Position, Tile] = {}
    index: dict[Position, int] = {}
    unread: dict[Position, int] = {}
    for i, item in enumerate(items):
        where = (*path, "tiles", i)
        tile = read(item, where)
        if isinstance(tile, Unread):
            problems.extend(check_numbers(tile.position, tile.goods, where))
            if tile.placed:
                unread.setdefault(tile.position, i)
            continue
        if tile is None:
            continue
        first = index.get(tile.position)
        if first is not None:
            problems.extend(check_overlapping(tile, where, first))
            continue
        index[tile.position] = i
        placed[tile.position] = tile
    return ReadTiles(placed, index, unread)


def _unknown_building(building_id: str, catalog: Catalog, path: Path) -> Problem:
    close = catalog.names.nearest(building_id)
    if close:
        return Problem(path, UNKNOWN_BUILDING_LIKE(
            building=quoted(building_id), like=tuple(catalog[id_].name for id_ in close)))
    return Problem(path, UNKNOWN_BUILDING(building=quoted(building_id)))

"""What makes a Foxglove Farm setup, state or action malformed, whatever the rules say.

The referee is stateless: a client sends the state with every action, so a state may be
a transcription of a real table. :func:`check_state` lists everything that makes one
impossible, each problem with its path into the state's JSON form
(``("players", 1, "town", "tiles", 4)``), as python-chess's ``Board.status()`` names
everything wrong with a hand-entered position. :func:`check_setup` and
:func:`check_action` do the same for a setup and an action.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..players import MAX_PLAYERS, name_problems
from ..problems import Path, Problem, quoted
from ._json import out_of_range
from .catalog import Catalog, builtin_catalog, builtin_catalog_version
from .central_board import (
    C_SPACES,
    SOLO_SETUPS,
    STACK_SIZES,
    Spaces,
    area_tier,
    Area,
    board_spaces,
    refill,
)
from .construction import Payment
from .effects import Haul
from .game_state import (
    ROUNDS,
    RULES_VERSION,
    Action,
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    GameState,
    HaulGoods,
    GamePhase,
    ProcessGoods,
    Produce,
    Setup,
    Transport,
)
from .model import GOODS, Goods, Position, trail_shape
from .town import MAX_GOODS_COUNT, MAX_TILES, check_position, check_town
from .transport import Move, check_move as check_transport

MAX_DRAWN = max(STACK_SIZES.values())
MAX_PARTS = MAX_TILES
"""The most parts of one list in an action or state (payments, choices, picks, trails,
huts that hauled): a town of :data:`.MAX_TILES` tiles has no more to name."""


def _seats(count: int, solo: int | None) -> list[Problem]:
    if not 1 <= count <= MAX_PLAYERS:
        return [Problem(("players",), f"a game has 1 to {MAX_PLAYERS} players; got {count}")]
    if count == 1 and solo is None:
        return [Problem(("solo",), "a one-player game is a solo game: name its setup, 1 to "
                                   f"{len(SOLO_SETUPS)} (FF-R20)")]
    if count > 1 and solo is not None:
        return [Problem(("solo",), "a solo game has one player")]
    if solo is not None and solo not in SOLO_SETUPS:
        return [Problem(("solo",), f"the solo setups are 1 to {len(SOLO_SETUPS)}; got {solo}")]
    return []


def _tile_ids(catalog: Catalog, tiles: Sequence[str], tier: str, path: Path) -> list[Problem]:
    problems = []
    for i, building in enumerate(tiles):
        known = catalog.get(building)
        if known is None:
            problems.append(Problem((*path, i), f"{quoted(building)} is not a building of the "
                                                "catalog"))
        elif tier not in known.tiers:
            problems.append(Problem((*path, i), f"the {known.name} is not a tile of tier {tier}"))
    return problems


def check_setup(setup: Setup) -> list[Problem]:
    """Every problem with a setup, with paths into its JSON form."""
    catalog = setup.catalog or builtin_catalog()
    problems = _seats(len(setup.players), setup.solo)
    problems.extend(name_problems([seat.name for seat in setup.players]))
    if problems:
        return problems
    if not 0 <= setup.start_player < len(setup.players):
        problems.append(Problem(("start_player",), f"seats are 0 to {len(setup.players) - 1}"))
    solo = SOLO_SETUPS.get(setup.solo) if setup.solo is not None else None
    for name, tiles, tier, spaces, laid_out in (
            ("a_tiles", setup.a_tiles, "A", board_spaces(len(setup.players), solo is not None),
             solo.a_tiles if solo else ()),
            ("c_tiles", setup.c_tiles, "C", C_SPACES, solo.c_tiles if solo else ())):
        if solo is not None and laid_out:
            if tiles and tiles != laid_out:
                problems.append(Problem((name,), f"solo setup {solo.number} ({solo.name}) lays "
                                        f"out {', '.join(laid_out)}; leave {name} out"))
            continue
        found = _tile_ids(catalog, tiles, tier, (name,))
        problems.extend(found)
        if not found:
            filled = refill((None,) * spaces, tiles, STACK_SIZES[tier])
            if filled.problem is not None or None in filled.spaces:
                problems.append(Problem((name,), (
                    f"the {tier} tiles drawn, in order, fill the {spaces} {tier} spaces "
                    "(identical tiles stack on one space, FF-R13)"
                    + (f": {filled.problem[1]}" if filled.problem else ""))))
    return problems


# -- actions ---------------------------------------------------------------------------

def _goods(goods: Goods, path: Path) -> list[Problem]:
    return [p for good, n in zip(GOODS, goods)
            if (p := out_of_range(n, (*path, good.value), 0, MAX_GOODS_COUNT)) is not None]


def _too_many(count: int, path: Path) -> list[Problem]:
    if count <= MAX_PARTS:
        return []
    return [Problem(path, f"at most {MAX_PARTS}; got {count}")]


def _placed_goods(parts: Sequence[tuple[Position, Goods]], path: Path) -> list[Problem]:
    if len(parts) > MAX_PARTS:
        return _too_many(len(parts), path)
    problems: list[Problem] = []
    for i, (position, goods) in enumerate(parts):
        problems.extend(check_position(position, (*path, i)))
        problems.extend(_goods(goods, (*path, i, "goods")))
    return problems


def _choices(choices: Sequence[tuple[Position, Goods]]) -> list[Problem]:
    """A choice per tile, each tile named once."""
    problems = _placed_goods(choices, ("choices",))
    if len(choices) > MAX_PARTS:
        return problems
    seen: set[Position] = set()
    for i, (position, _) in enumerate(choices):
        if position in seen:
            problems.append(Problem(("choices", i), (
                f"row {position.row}, col {position.col} is named twice: a tile has one "
                "outcome")))
        seen.add(position)
    return problems


def _payment(payment: Sequence[Payment]) -> list[Problem]:
    return _placed_goods([(p.position, p.goods) for p in payment], ("payment",))


def check_action(state: GameState, action: Action) -> list[Problem]:
    """Every way ``action`` is malformed in ``state``'s game (a seat that does not exist,
    an unknown building, a trail no tile has, numbers beyond the table), paths relative
    to the action."""
    problems: list[Problem] = []
    if not isinstance(action, DrawTiles) and not 0 <= action.player < len(state.players):
        problems.append(Problem(("player",), f"seats are 0 to {len(state.players) - 1}"))
    if isinstance(action, Produce | ProcessGoods):
        problems.extend(_choices(action.choices))
    elif isinstance(action, BuildBuilding):
        if action.building not in state.catalog:
            problems.append(Problem(("building",), f"{quoted(action.building)} is not a building "
                                                   "of the catalog"))
        problems.extend(check_position(action.position, ("position",)))
        problems.extend(_payment(action.payment))
        if action.gain is not None:
            problems.extend(_goods(action.gain, ("gain",)))
    elif isinstance(action, BuildTrails):
        if not 1 <= len(action.trails) <= MAX_PARTS:
            problems.append(Problem(("trails",), f"1 to {MAX_PARTS} trails an action; got "
                                                 f"{len(action.trails)}"))
        for i, work in enumerate(action.trails[:MAX_PARTS]):
            problems.extend(check_position(work.position, ("trails", i, "position")))
            if trail_shape(work.sides) is None:
                problems.append(Problem(("trails", i, "sides"), (
                    "a trail is open on two opposite sides (straight), two neighbouring "
                    "sides (curved) or three sides (T-junction)")))
        problems.extend(_payment(action.payment))
    elif isinstance(action, Transport):
        problems.extend(check_transport(Move(action.good, action.count, action.origin,
                                             action.destination)))
    elif isinstance(action, HaulGoods):
        problems.extend(check_position(action.hut, ("to",)))
        problems.extend(_too_many(len(action.picks), ("picks",)))
        for i, pick in enumerate(action.picks[:MAX_PARTS]):
            problems.extend(check_position(pick.origin, ("picks", i, "from")))
            count = out_of_range(pick.count, ("picks", i, "count"), 1, MAX_GOODS_COUNT)
            if count is not None:
                problems.append(count)
    elif isinstance(action, DrawTiles):
        if len(action.tiles) > MAX_DRAWN:
            problems.append(Problem(("tiles",), f"at most {MAX_DRAWN} tiles; got "
                                                f"{len(action.tiles)}"))
        else:
            problems.extend(Problem(("tiles", i), f"{quoted(b)} is not a building of the catalog")
                            for i, b in enumerate(action.tiles) if b not in state.catalog)
    return problems


# -- states ----------------------------------------------------------------------------

def _spaces(catalog: Catalog, spaces: Spaces, tier: str | None, count: int, path: Path
            ) -> list[Problem]:
    problems = []
    if len(spaces) != count:
        problems.append(Problem(path, f"{count} spaces; got {len(spaces)}"))
    seen: set[str] = set()
    for i, space in enumerate(spaces):
        if space is None:
            continue
        building = catalog.get(space.building)
        where = (*path, i)
        if building is None:
            problems.append(Problem((*where, "building"), f"{quoted(space.building)} is not a "
                                                          "building of the catalog"))
        elif tier is None or tier not in building.tiers:
            problems.append(Problem((*where, "building"), (
                f"the {building.name} cannot be on these spaces now" if tier is None else
                f"the {building.name} is not a tile of tier {tier}")))
        if space.building in seen:
            problems.append(Problem((*where, "building"), (
                "identical tiles stack on one space (FF-R13)")))
        seen.add(space.building)
        count_problem = out_of_range(space.count, (*where, "count"), 1, STACK_SIZES["B"])
        if count_problem is not None:
            problems.append(count_problem)
    return problems


def check_state(state: GameState) -> list[Problem]:
    """Every problem with a state, whoever built it; paths into its JSON form."""
    problems: list[Problem] = []
    if state.rules_version != RULES_VERSION:
        problems.append(Problem(("rules_version",), f"this referee plays rules version "
                                                    f"{RULES_VERSION}"))
    if state.catalog_version != builtin_catalog_version():
        problems.append(Problem(("catalog_version",), (
            f"the state was made under catalog {quoted(state.catalog_version)}; this referee's is "
            f"{builtin_catalog_version()!r}: start the game again, or replay its log")))
    seats = _seats(len(state.players), state.solo)
    problems.extend(seats)
    problems.extend(name_problems([p.name for p in state.players]))
    for i, player in enumerate(state.players[:MAX_PLAYERS]):
        problems.extend(p.under("players", i, "town") for p in check_town(player.town))
    round_problem = out_of_range(state.round, ("round",), 1, ROUNDS)
    if round_problem is not None:
        problems.append(round_problem)
    if seats or round_problem:  # the seats, flags and board are judged against these
        return problems
    count = len(state.players)
    for name in ("start_player", "current_player"):
        seat = out_of_range(getattr(state, name), (name,), 0, count - 1)
        if seat is not None:
            problems.append(seat)
    if state.phase is GamePhase.GAME_OVER and state.round != ROUNDS:
        problems.append(Problem(("phase",), "the game is over only after round 4"))
    if (state.phase in (GamePhase.PRODUCTION, GamePhase.TRANSPORTATION)
            and all(p.done for p in state.players)):
        problems.append(Problem(("phase",), (
            f"every player has finished the {state.phase.value} phase, which ends when the "
            "last one does: the game is in the next phase by now (send back the state the "
            "referee answered)")))
    for i in range(count):
        problems.extend(_player_flags(state, i))
    board = state.board
    offer_tier = area_tier(Area.OFFER, state.round)
    problems.extend(_spaces(state.catalog, board.offer, offer_tier,
                            board_spaces(count, state.solo is not None), ("board", "offer")))
    problems.extend(_spaces(state.catalog, board.c_spaces, "C", C_SPACES, ("board", "c_spaces")))
    shown = {offer_tier: board.offer, "C": board.c_spaces}
    for tier, size in STACK_SIZES.items():
        path = ("board", "stacks", tier)
        left = out_of_range(board.stacks.of(tier), path, 0, size)
        on_board = sum(space.count for space in shown.get(tier, ()) if space is not None)
        if left is not None:
            problems.append(left)
        elif board.stacks.of(tier) + on_board > size:
            problems.append(Problem(path, (
                f"{board.stacks.of(tier)} {tier} tiles left in the stack and {on_board} on "
                f"the board: the box holds {size}")))
    return problems


def _player_flags(state: GameState, seat: int) -> list[Problem]:
    """A player's flags agree with the phase: passing only in construction, being done
    only in production and transportation, runs and hauls only in transportation."""
    player = state.players[seat]
    path: Path = ("players", seat)
    problems = []
    if player.passed and state.phase is not GamePhase.CONSTRUCTION:
        problems.append(Problem((*path, "passed"), "players pass only in the construction "
                                                   "phase"))
    if player.done and state.phase not in (GamePhase.PRODUCTION, GamePhase.TRANSPORTATION):
        problems.append(Problem((*path, "done"), "only the production and transportation "
                                                 "phases are finished player by player"))
    if state.phase is not GamePhase.TRANSPORTATION and (player.runs or player.moved
                                                    or player.hauled):
        problems.append(Problem(path, "processing runs, transports and hauls are counted only "
                                      "in the transportation phase"))
    if len(player.hauled) > MAX_PARTS:
        return [*problems, Problem((*path, "hauled"), f"at most {MAX_PARTS} huts; got "
                                                      f"{len(player.hauled)}")]
    for position in player.hauled:
        tile = player.town.building_at(position)
        if tile is None or not any(isinstance(e, Haul) for e in tile.building.effects):
            problems.append(Problem((*path, "hauled"), (
                f"row {position.row}, col {position.col} is not a Hauler's Hut of the town")))
    if state.phase is GamePhase.CONSTRUCTION and seat == state.current_player and player.passed:
        problems.append(Problem(("current_player",), "the player whose turn it is has passed"))
    return problems

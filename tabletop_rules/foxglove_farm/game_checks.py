"""What makes a Foxglove Farm setup, state or action malformed, whatever the rules say.

The referee is stateless: a client sends the state with every action, so a state may be
a transcription of a real table. :func:`check_state` lists everything that makes one
impossible, each problem with its path into the state's JSON form
(``("players", 1, "town", "tiles", 4)``), as python-chess's ``Board.status()`` names
everything wrong with a hand-entered position. :func:`check_setup` and
:func:`check_action` do the same for a setup and an action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..messages import Say, choice, template
from ..players import MAX_PLAYERS, name_problems
from ..problems import Path, Problem, quoted
from ..json_reading import out_of_range
from .catalog import Catalog
from .catalog_format import builtin_catalog, builtin_catalog_version
from .central_board import (
    _DRAW_TOO_MANY,
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

# The problems' sentences, each named by its code, its format fields its params.
PLAYER_COUNT = template("FF_PLAYER_COUNT", "a game has 1 to {max} players; got {count}")
SOLO_NEEDED = template("FF_SOLO_NEEDED", "a one-player game is a solo game: name its setup, "
                                         "1 to {setups} (FF-R20)")
SOLO_ONE_PLAYER = template("FF_SOLO_ONE_PLAYER", "a solo game has one player")
SOLO_SETUP = template("FF_SOLO_SETUP", "the solo setups are 1 to {setups}; got {solo}")
NOT_IN_CATALOG = template("FF_NOT_IN_CATALOG", "{building} is not a building of the catalog")
NOT_OF_TIER = template("FF_NOT_OF_TIER", "the {building} is not a tile of tier {tier}")
SEATS = template("FF_SEATS", "seats are 0 to {max}")
SOLO_LAID_OUT = template("FF_SOLO_LAID_OUT",
                         "solo setup {number} ({name}) lays out {tiles}; leave {field} out")
DRAWN_FILL = template(
    "FF_DRAWN_FILL", "the {tier} tiles drawn, in order, fill the {spaces} {tier} spaces "
    "(identical tiles stack on one space, FF-R13)")


def _why_not(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    return {"reason": say(_DRAW_TOO_MANY, **params)}


DRAWN_FILL_BECAUSE = template(
    "FF_DRAWN_FILL_BECAUSE", "the {tier} tiles drawn, in order, fill the {spaces} {tier} "
    "spaces (identical tiles stack on one space, FF-R13): {reason}", derive=_why_not)
"""The setup's draw refused, and why: its params are the draw's (``why``...)."""
TOO_MANY_PARTS = template("FF_TOO_MANY_PARTS", "at most {limit}; got {count}")
CHOICE_TWICE = template("FF_CHOICE_TWICE",
                        "row {row}, col {col} is named twice: a tile has one outcome")
TRAIL_COUNT = template("FF_TRAIL_COUNT", "1 to {max} trails an action; got {count}")
TRAIL_SHAPE = template(
    "FF_TRAIL_SHAPE", "a trail is open on two opposite sides (straight), two neighbouring "
    "sides (curved) or three sides (T-junction)")
TOO_MANY_DRAWN = template("FF_TOO_MANY_DRAWN", "at most {limit} tiles; got {count}")
SPACE_COUNT = template("FF_SPACE_COUNT", "{want} spaces; got {count}")
NOT_ON_SPACES_NOW = template("FF_NOT_ON_SPACES_NOW",
                             "the {building} cannot be on these spaces now")
STACKED_TWICE = template("FF_STACKED_TWICE", "identical tiles stack on one space (FF-R13)")
RULES_VERSION_UNKNOWN = template("FF_RULES_VERSION", "this referee plays rules version "
                                                     "{version}")
CATALOG_VERSION = template(
    "FF_CATALOG_VERSION", "the state was made under catalog {made}; this referee's is "
    "{current}: start the game again, or replay its log")
OVER_TOO_EARLY = template("FF_OVER_TOO_EARLY", "the game is over only after round {rounds}")
PHASE_FINISHED = template(
    "FF_PHASE_FINISHED", "every player has finished the {phase:term} phase, which ends when "
    "the last one does: the game is in the next phase by now (send back the state the "
    "referee answered)")
STACK_TOTAL = template(
    "FF_STACK_TOTAL", "{left} {tier} tiles left in the stack and {on_board} on the board: the "
    "box holds {size}")
PASSED_OUT_OF_PHASE = template("FF_PASSED_OUT_OF_PHASE",
                               "players pass only in the construction phase")
DONE_OUT_OF_PHASE = template(
    "FF_DONE_OUT_OF_PHASE",
    "only the production and transportation phases are finished player by player")
COUNTED_OUT_OF_PHASE = template(
    "FF_COUNTED_OUT_OF_PHASE", "processing runs, transports and hauls are counted only in the "
    "transportation phase")
TOO_MANY_HUTS = template("FF_TOO_MANY_HUTS", "at most {limit} huts; got {count}")
NOT_A_HUT = template("FF_NOT_A_HUT", "row {row}, col {col} is not a Hauler's Hut of the town")
CURRENT_PASSED = template("FF_CURRENT_PASSED", "the player whose turn it is has passed")
# Said by the engine's protobuf reader, declared with the rules so that the gateway, which
# words a 422 detail again in the caller's language, knows them too.
GAME_TOWN_CATALOG = template(
    "FF_GAME_TOWN_CATALOG", "a game's buildings are defined once, in the state's \"catalog\"; "
    "a town in a game carries no catalog of its own")
_MORE_THAN_A_TOWN = " (a town has at most {tiles} tiles); got {count}"
TOO_MANY_READ = choice(
    "FF_TOO_MANY_READ", lambda p: str(p["what"]),
    hauled="at most {limit} hauled huts" + _MORE_THAN_A_TOWN,
    trails="at most {limit} trails" + _MORE_THAN_A_TOWN,
    picks="at most {limit} picks" + _MORE_THAN_A_TOWN,
    choices="at most {limit} choices" + _MORE_THAN_A_TOWN,
    payment="at most {limit} payment parts" + _MORE_THAN_A_TOWN)
"""More parts of an action or state than the rules read (:data:`MAX_PARTS`; ``what``:
which), refused before they are read."""
NO_ACTION = template("FF_NO_ACTION", "the action has no action; expected one of {expected}")
TOO_MANY_ACTIONS = template("FF_TOO_MANY_ACTIONS",
                            "at most {limit} actions (the limit); got {count}")


def _seats(count: int, solo: int | None) -> list[Problem]:
    if not 1 <= count <= MAX_PLAYERS:
        return [Problem(("players",), PLAYER_COUNT(max=MAX_PLAYERS, count=count))]
    if count == 1 and solo is None:
        return [Problem(("solo",), SOLO_NEEDED(setups=len(SOLO_SETUPS)))]
    if count > 1 and solo is not None:
        return [Problem(("solo",), SOLO_ONE_PLAYER())]
    if solo is not None and solo not in SOLO_SETUPS:
        return [Problem(("solo",), SOLO_SETUP(setups=len(SOLO_SETUPS), solo=solo))]
    return []


def _tile_ids(catalog: Catalog, tiles: Sequence[str], tier: str, path: Path) -> list[Problem]:
    problems = []
    for i, building in enumerate(tiles):
        known = catalog.get(building)
        if known is None:
            problems.append(Problem((*path, i), NOT_IN_CATALOG(building=quoted(building))))
        elif tier not in known.tiers:
            problems.append(Problem((*path, i), NOT_OF_TIER(building=known.name, tier=tier)))
    return problems


def check_setup(setup: Setup) -> list[Problem]:
    """Every problem with a setup, with paths into its JSON form."""
    catalog = setup.catalog or builtin_catalog()
    problems = _seats(len(setup.players), setup.solo)
    problems.extend(name_problems([seat.name for seat in setup.players]))
    if problems:
        return problems
    if not 0 <= setup.start_player < len(setup.players):
        problems.append(Problem(("start_player",), SEATS(max=len(setup.players) - 1)))
    solo = SOLO_SETUPS.get(setup.solo) if setup.solo is not None else None
    for name, tiles, tier, spaces, laid_out in (
            ("a_tiles", setup.a_tiles, "A", board_spaces(len(setup.players), solo is not None),
             solo.a_tiles if solo else ()),
            ("c_tiles", setup.c_tiles, "C", C_SPACES, solo.c_tiles if solo else ())):
        if solo is not None and laid_out:
            if tiles and tiles != laid_out:
                problems.append(Problem((name,), SOLO_LAID_OUT(
                    number=solo.number, name=solo.name, tiles=tuple(laid_out), field=name)))
            continue
        found = _tile_ids(catalog, tiles, tier, (name,))
        problems.extend(found)
        if not found:
            filled = refill((None,) * spaces, tiles, STACK_SIZES[tier])
            if filled.problem is not None or None in filled.spaces:
                problems.append(Problem((name,), DRAWN_FILL(tier=tier, spaces=spaces)
                                        if filled.problem is None else DRAWN_FILL_BECAUSE(
                                            tier=tier, spaces=spaces,
                                            **filled.problem[1].params)))
    return problems


# -- actions ---------------------------------------------------------------------------

def _goods(goods: Goods, path: Path) -> list[Problem]:
    return [p for good, n in zip(GOODS, goods)
            if (p := out_of_range(n, (*path, good.value), 0, MAX_GOODS_COUNT)) is not None]


def _too_many(count: int, path: Path) -> list[Problem]:
    if count <= MAX_PARTS:
        return []
    return [Problem(path, TOO_MANY_PARTS(limit=MAX_PARTS, count=count))]


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
            problems.append(Problem(("choices", i), CHOICE_TWICE(row=position.row,
                                                                 col=position.col)))
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
        problems.append(Problem(("player",), SEATS(max=len(state.players) - 1)))
    if isinstance(action, Produce | ProcessGoods):
        problems.extend(_choices(action.choices))
    elif isinstance(action, BuildBuilding):
        if action.building not in state.catalog:
            problems.append(Problem(("building",), NOT_IN_CATALOG(
                building=quoted(action.building))))
        problems.extend(check_position(action.position, ("position",)))
        problems.extend(_payment(action.payment))
        if action.gain is not None:
            problems.extend(_goods(action.gain, ("gain",)))
    elif isinstance(action, BuildTrails):
        if not 1 <= len(action.trails) <= MAX_PARTS:
            problems.append(Problem(("trails",), TRAIL_COUNT(max=MAX_PARTS,
                                                             count=len(action.trails))))
        for i, work in enumerate(action.trails[:MAX_PARTS]):
            problems.extend(check_position(work.position, ("trails", i, "position")))
            if trail_shape(work.sides) is None:
                problems.append(Problem(("trails", i, "sides"), TRAIL_SHAPE()))
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
            problems.append(Problem(("tiles",), TOO_MANY_DRAWN(limit=MAX_DRAWN,
                                                               count=len(action.tiles))))
        else:
            problems.extend(Problem(("tiles", i), NOT_IN_CATALOG(building=quoted(b)))
                            for i, b in enumerate(action.tiles) if b not in state.catalog)
    return problems


# -- states ----------------------------------------------------------------------------

def _spaces(catalog: Catalog, spaces: Spaces, tier: str | None, count: int, path: Path
            ) -> list[Problem]:
    problems = []
    if len(spaces) != count:
        problems.append(Problem(path, SPACE_COUNT(want=count, count=len(spaces))))
    seen: set[str] = set()
    for i, space in enumerate(spaces):
        if space is None:
            continue
        building = catalog.get(space.building)
        where = (*path, i)
        if building is None:
            problems.append(Problem((*where, "building"), NOT_IN_CATALOG(
                building=quoted(space.building))))
        elif tier is None or tier not in building.tiers:
            problems.append(Problem((*where, "building"), (
                NOT_ON_SPACES_NOW(building=building.name) if tier is None else
                NOT_OF_TIER(building=building.name, tier=tier))))
        if space.building in seen:
            problems.append(Problem((*where, "building"), STACKED_TWICE()))
        seen.add(space.building)
        count_problem = out_of_range(space.count, (*where, "count"), 1, STACK_SIZES["B"])
        if count_problem is not None:
            problems.append(count_problem)
    return problems


def check_state(state: GameState) -> list[Problem]:
    """Every problem with a state, whoever built it; paths into its JSON form."""
    problems: list[Problem] = []
    if state.rules_version != RULES_VERSION:
        problems.append(Problem(("rules_version",), RULES_VERSION_UNKNOWN(version=RULES_VERSION)))
    if state.catalog_version != builtin_catalog_version():
        problems.append(Problem(("catalog_version",), CATALOG_VERSION(
            made=quoted(state.catalog_version), current=repr(builtin_catalog_version()))))
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
        problems.append(Problem(("phase",), OVER_TOO_EARLY(rounds=ROUNDS)))
    if (state.phase in (GamePhase.PRODUCTION, GamePhase.TRANSPORTATION)
            and all(p.done for p in state.players)):
        problems.append(Problem(("phase",), PHASE_FINISHED(phase=state.phase.value)))
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
            problems.append(Problem(path, STACK_TOTAL(left=board.stacks.of(tier), tier=tier,
                                                      on_board=on_board, size=size)))
    return problems


def _player_flags(state: GameState, seat: int) -> list[Problem]:
    """A player's flags agree with the phase: passing only in construction, being done
    only in production and transportation, runs and hauls only in transportation."""
    player = state.players[seat]
    path: Path = ("players", seat)
    problems = []
    if player.passed and state.phase is not GamePhase.CONSTRUCTION:
        problems.append(Problem((*path, "passed"), PASSED_OUT_OF_PHASE()))
    if player.done and state.phase not in (GamePhase.PRODUCTION, GamePhase.TRANSPORTATION):
        problems.append(Problem((*path, "done"), DONE_OUT_OF_PHASE()))
    if state.phase is not GamePhase.TRANSPORTATION and (player.runs or player.moved
                                                    or player.hauled):
        problems.append(Problem(path, COUNTED_OUT_OF_PHASE()))
    if len(player.hauled) > MAX_PARTS:
        return [*problems, Problem((*path, "hauled"), TOO_MANY_HUTS(
            limit=MAX_PARTS, count=len(player.hauled)))]
    for position in player.hauled:
        tile = player.town.building_at(position)
        if tile is None or not any(isinstance(e, Haul) for e in tile.building.effects):
            problems.append(Problem((*path, "hauled"), NOT_A_HUT(row=position.row,
                                                                 col=position.col)))
    if state.phase is GamePhase.CONSTRUCTION and seat == state.current_player and player.passed:
        problems.append(Problem(("current_player",), CURRENT_PASSED()))
    return problems

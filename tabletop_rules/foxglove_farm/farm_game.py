"""Foxglove Farm, four rounds, as a :class:`tabletop_rules.game.Game` (states and actions
in :mod:`.game_state`).

Interpretations the rulebook leaves open, to set beside the rulings (the modules this
one uses write down their own: :mod:`.production`, :mod:`.construction`,
:mod:`.central_board`, :mod:`.final_round`):

- Production, transportation and processing are simultaneous: the players' actions in
  those phases are taken in any order, each player's own in the order made. ``turn``
  names the first player still to act from the start player clockwise.
- Production and processing are resolved by the referee (FF-R5, FF-R4): a player's
  ``produce`` and ``process`` actions carry only the choices the rules leave them.
- In rounds 1 to 3 a player's transportation ends with their processing run. In the
  fourth round transports and runs alternate (FF-R15) until the player ends the round,
  after at least one run. A Hauler's Hut hauls at the start of each transportation
  phase, before its first transport, and each run starts a new one (FF-R17).
- The start player piece passes one seat clockwise when a round ends (FF-R14). After the
  second round the A tiles go back to their stack and the B spaces are filled (FF-R13).
- A solo game (FF-R20) plays the same rounds with one seat.
- The game is over when every player has ended the fourth round; the standings add the
  end-game effects to the score tracks (FF-R16), which states do not.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from ..messages import template
from ..game import Game, Turn
from ..problems import InvalidInputError, Problem
from ..verdicts import Verdict
from .catalog_format import builtin_catalog, builtin_catalog_version
from .central_board import (
    BOARD_RULE,
    C_SPACES,
    SOLO_SETUPS,
    STACK_SIZES,
    Area,
    CentralBoard,
    StacksLeft,
    area_tier,
    board_spaces,
    refill,
    solo_clear,
    take,
)
from .construction import (
    BUILD_RULE,
    build_building,
    build_trails,
    check_building,
    check_trails,
    free_positions,
    pay_from,
    trail_payment,
    trail_placements,
    trail_upgrades,
)
from .final_round import NO_PROCESSING_YET, haul, processing_run, transports
from .game_checks import check_action, check_setup
from .game_state import (
    ROUNDS,
    RULES_VERSION,
    Action,
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    EndRound,
    GameState,
    HaulGoods,
    Pass,
    GamePhase,
    Player,
    ProcessGoods,
    Produce,
    Setup,
    Transport,
)
from .model import BuildingTile, Position, Town
from .production import produce
from .ranking import Ranking, rank_towns
from .reasons import Reason, Violation
from .scoring import TownScore
from .transport import Move, validate_transport

MAX_LOG_ACTIONS = 5000
"""The longest log a replay reads: a four-player game makes a few hundred actions (a
construction turn, a transport or a run each), so this is a wide margin."""
ROUND_RULE = "FF-RULEBOOK-ROUND-OVERVIEW"
TURN_RULE = "FF-R14"
FINAL_ROUND_RULE = "FF-R15"
STARTING_TILE = ((Position(0, 0), "forest"), (Position(0, 1), "mine"))
"""Where a new town's starting tile lies: the Forest at row 0, col 0 and the Mine east of
it (positions are relative, so any placement is this one moved)."""

_PHASE_OF = {Produce: GamePhase.PRODUCTION, BuildBuilding: GamePhase.CONSTRUCTION,
             BuildTrails: GamePhase.CONSTRUCTION, Pass: GamePhase.CONSTRUCTION,
             Transport: GamePhase.TRANSPORTATION, HaulGoods: GamePhase.TRANSPORTATION,
             ProcessGoods: GamePhase.TRANSPORTATION, EndRound: GamePhase.TRANSPORTATION}
_EXPECTED = {GamePhase.PRODUCTION: "produce", GamePhase.CONSTRUCTION: "construct",
             GamePhase.TRANSPORTATION: "transport"}
DRAW_EXPECTED = "draw_tiles"


_GAME_OVER = template("GAME_OVER", "The game is over: the fourth round has ended",
                      namespace="FF")
_NO_TILES_TO_DRAW = template(
    "NO_TILES_TO_DRAW", "No space of the central board is waiting for tiles", namespace="FF")
_AWAITING_DRAWN_TILES = template(
    "AWAITING_DRAWN_TILES", "The central board has an empty space: say which tiles were "
    "drawn to fill it before the game goes on", namespace="FF")
_WRONG_PHASE = template(
    "WRONG_PHASE", "It is the {phase:term} phase of round {round}: this action belongs to "
    "the {action_phase:term} phase", namespace="FF")
_FINAL_ROUND_ONLY = template(
    "FINAL_ROUND_ONLY", "Only the fourth round is ended by the player: in rounds 1 to 3 the "
    "processing run ends the player's round", namespace="FF")
_ALREADY_PASSED = template(
    "ALREADY_PASSED", "{player} has passed and acts no more in this construction phase",
    namespace="FF")
_NOT_YOUR_TURN = template(
    "NOT_YOUR_TURN", "It is {current}'s turn to construct, not {player}'s", namespace="FF")
_ALREADY_DONE = template(
    "ALREADY_DONE", "{player} has finished the {phase:term} phase of this round",
    namespace="FF")
_WRONG_TIER = template(
    "WRONG_TIER", "the {building} is not a tile of tier {tier}: these spaces are filled from "
    "the {tier} stack", namespace="FF")
_NOT_ON_OFFER = template(
    "NOT_ON_OFFER", "no {building} is on the central board: a building is chosen from the "
    "tiles on offer", namespace="FF")


class FoxgloveFarm:
    """The game's rules; stateless, so the one instance :data:`GAME` serves everyone."""

    slug = "foxglove-farm"
    max_log_moves = MAX_LOG_ACTIONS

    def new_game(self, setup: Setup) -> GameState:
        problems = check_setup(setup)
        if problems:
            raise InvalidInputError(problems)
        catalog = setup.catalog or builtin_catalog()
        players = tuple(Player(seat.name, Town(
            {p: BuildingTile(p, catalog[b]) for p, b in STARTING_TILE}, catalog, seat.variant))
            for seat in setup.players)
        solo = SOLO_SETUPS.get(setup.solo) if setup.solo is not None else None
        a_tiles = solo.a_tiles if solo and solo.a_tiles else setup.a_tiles
        c_tiles = solo.c_tiles if solo and solo.c_tiles else setup.c_tiles
        spaces = board_spaces(len(players), solo is not None)
        offer = refill((None,) * spaces, a_tiles, STACK_SIZES["A"])
        c_spaces = refill((None,) * C_SPACES, c_tiles, STACK_SIZES["C"])
        board = CentralBoard(offer.spaces, c_spaces.spaces, StacksLeft(
            STACK_SIZES["A"] - len(a_tiles), STACK_SIZES["B"], STACK_SIZES["C"] - len(c_tiles)))
        return GameState(RULES_VERSION, builtin_catalog_version(), catalog, players, 1,
                         GamePhase.PRODUCTION, setup.start_player, setup.start_player, board,
                         setup.solo)

    def turn(self, state: GameState) -> Turn:
        if state.phase is GamePhase.GAME_OVER:
            return Turn(None, None)
        if state.board.awaiting(state.round) is not None:
            return Turn(None, DRAW_EXPECTED)
        if state.phase is GamePhase.CONSTRUCTION:
            return Turn(state.current_player, _EXPECTED[state.phase])
        return Turn(next(_pending(state)), _EXPECTED[state.phase])

    def legal_moves(self, state: GameState) -> Sequence[Action]:
        if state.phase is GamePhase.GAME_OVER or state.board.awaiting(state.round) is not None:
            return ()
        if state.phase is GamePhase.PRODUCTION:
            return tuple(Produce(seat) for seat in _pending(state))
        if state.phase is GamePhase.CONSTRUCTION:
            return tuple(_constructions(state))
        return tuple(_transportation(state))

    def check_move(self, state: GameState, move: Action) -> list[Problem]:
        return check_action(state, move)

    def validate(self, state: GameState, move: Action) -> Verdict[GameState, Reason]:
        """Judge ``move``: :class:`InvalidInputError` if it is malformed (paths under
        ``action``). The state is trusted to be well formed, as every state from
        :meth:`new_game` or a verdict is: checking a hand-built one is
        :func:`.check_state`'s (the engine runs it on every state it reads), too slow
        to repeat on every action of a replay."""
        problems = check_action(state, move)
        if problems:
            raise InvalidInputError([p.under("action") for p in problems])
        refused = _out_of_turn(state, move)
        if refused is not None:
            return Verdict(None, (refused,))
        if isinstance(move, DrawTiles):
            return _draw(state, move)
        player = state.players[move.player]
        if isinstance(move, Produce):
            produced = produce(player.town, move.choices)
            if not isinstance(produced, tuple):
                return Verdict(None, (produced,))
            return Verdict(_after_simultaneous(state, move.player, replace(
                player, town=produced[0], done=True)))
        if isinstance(move, Pass):
            return Verdict(_next_turn(state, move.player, replace(player, passed=True)))
        if isinstance(move, BuildBuilding):
            return _build_building(state, move)
        if isinstance(move, BuildTrails):
            violations, tiles = check_trails(player.town, move.trails, move.payment)
            if violations:
                return Verdict(None, tuple(violations))
            town = build_trails(player.town, tiles, move.payment)
            return Verdict(_next_turn(state, move.player, replace(player, town=town)))
        return _transportation_action(state, player, move)

    def standings(self, state: GameState) -> Ranking | None:
        if state.phase is not GamePhase.GAME_OVER:
            return None
        return rank_towns([(p.name, p.town) for p in state.players])


def _pending(state: GameState) -> Iterator[int]:
    """The seats still to act in a simultaneous phase, from the start player clockwise."""
    count = len(state.players)
    for step in range(count):
        seat = (state.start_player + step) % count
        if not state.players[seat].done:
            yield seat


# -- turns and phases ------------------------------------------------------------------

def _out_of_turn(state: GameState, move: Action) -> Violation | None:
    """Why ``move`` cannot be made now whatever it does: the game is over, the board
    waits for drawn tiles, another phase, or another player's turn."""
    if state.phase is GamePhase.GAME_OVER:
        return Violation(Reason.GAME_OVER, ROUND_RULE, _GAME_OVER())
    awaiting = state.board.awaiting(state.round)
    if isinstance(move, DrawTiles):
        if awaiting is None:
            return Violation(Reason.NO_TILES_TO_DRAW, BOARD_RULE, _NO_TILES_TO_DRAW(),
                             ("action",))
        return None
    if awaiting is not None:
        return Violation(Reason.AWAITING_DRAWN_TILES, BOARD_RULE, _AWAITING_DRAWN_TILES())
    phase = _PHASE_OF[type(move)]
    if phase is not state.phase:
        return Violation(Reason.WRONG_PHASE, ROUND_RULE, _WRONG_PHASE(
            phase=state.phase.value, round=state.round, action_phase=phase.value), ("action",))
    if isinstance(move, EndRound) and state.round != ROUNDS:
        return Violation(Reason.FINAL_ROUND_ONLY, FINAL_ROUND_RULE, _FINAL_ROUND_ONLY(),
                         ("action",))
    player = state.players[move.player]
    if phase is GamePhase.CONSTRUCTION:
        if player.passed:
            return Violation(Reason.ALREADY_PASSED, TURN_RULE,
                             _ALREADY_PASSED(player=player.name), ("player",))
        if move.player != state.current_player:
            current = state.players[state.current_player].name
            return Violation(Reason.NOT_YOUR_TURN, TURN_RULE,
                             _NOT_YOUR_TURN(current=current, player=player.name), ("player",))
    elif player.done:
        return Violation(Reason.ALREADY_DONE, ROUND_RULE,
                         _ALREADY_DONE(player=player.name, phase=phase.value), ("player",))
    return None


def _with_player(state: GameState, seat: int, player: Player) -> GameState:
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players))


def _reset(player: Player) -> Player:
    return replace(player, passed=False, done=False, runs=0, moved=False,
                   hauled=frozenset())


def _after_simultaneous(state: GameState, seat: int, player: Player) -> GameState:
    """The state once ``player`` acted in a simultaneous phase; when every player is
    done, the next phase or round."""
    state = _with_player(state, seat, player)
    if not all(p.done for p in state.players):
        return state
    players = tuple(_reset(p) for p in state.players)
    if state.phase is GamePhase.PRODUCTION:
        return replace(state, players=players, phase=GamePhase.CONSTRUCTION,
                       current_player=state.start_player)
    if state.round == ROUNDS:
        return replace(state, players=players, phase=GamePhase.GAME_OVER)
    start = (state.start_player + 1) % len(players)
    board = state.board
    if state.round == 2:  # the A tiles go back to their stack; B spaces are filled
        returned = sum(space.count for space in board.offer if space is not None)
        board = replace(board, offer=(None,) * len(board.offer),
                        stacks=board.stacks.with_tier("A", board.stacks.A + returned))
    return replace(state, players=players, round=state.round + 1, phase=GamePhase.PRODUCTION,
                   start_player=start, current_player=start, board=board)


def _next_turn(state: GameState, seat: int, player: Player) -> GameState:
    """The state after a construction turn: the next seat clockwise that has not
    passed, or, once all have, the transportation phase (FF-R14)."""
    state = _with_player(state, seat, player)
    count = len(state.players)
    for step in range(1, count + 1):
        nxt = (seat + step) % count
        if not state.players[nxt].passed:
            return replace(state, current_player=nxt)
    return replace(state, players=tuple(_reset(p) for p in state.players),
                   phase=GamePhase.TRANSPORTATION, current_player=state.start_player)


# -- the central board -----------------------------------------------------------------

def _draw(state: GameState, move: DrawTiles) -> Verdict[GameState, Reason]:
    area = state.board.awaiting(state.round)
    assert area is not None
    tier = area_tier(area, state.round)
    wrong = [Violation(Reason.WRONG_TIER, BOARD_RULE, _WRONG_TIER(
        building=state.catalog[building].name, tier=tier), ("tiles", i))
        for i, building in enumerate(move.tiles)
        if tier not in state.catalog[building].tiers]
    if wrong:
        return Verdict(None, tuple(wrong))
    left = state.board.stacks.of(tier)
    filled = refill(state.board.spaces(area), move.tiles, left)
    if filled.problem is not None:
        index, message = filled.problem
        return Verdict(None, (Violation(Reason.WRONG_DRAW, BOARD_RULE, message,
                                        ("tiles",) if index is None else ("tiles", index)),))
    board = state.board.with_spaces(area, filled.spaces)
    board = replace(board, stacks=board.stacks.with_tier(tier, left - len(move.tiles)))
    return Verdict(replace(state, board=board))


def _build_building(state: GameState, move: BuildBuilding) -> Verdict[GameState, Reason]:
    player = state.players[move.player]
    found = state.board.find(move.building)
    if found is None:
        return Verdict(None, (Violation(Reason.NOT_ON_OFFER, BUILD_RULE, _NOT_ON_OFFER(
            building=state.catalog[move.building].name), ("building",)),))
    building = state.catalog[move.building]
    violations, outcome = check_building(player.town, building, move.position, move.payment,
                                         move.gain)
    if violations or outcome is None:
        return Verdict(None, tuple(violations))
    town = build_building(player.town, building, move.position, move.payment, outcome)
    area, index = found
    spaces = take(state.board.spaces(area), index)
    if state.solo is not None:
        spaces, _ = solo_clear(spaces)
    board = state.board.with_spaces(area, spaces)
    after = replace(state, board=board)
    return Verdict(_next_turn(after, move.player, replace(player, town=town)))


# -- transportation and processing -----------------------------------------------------

def _transportation_action(state: GameState, player: Player,
                           move: Transport | HaulGoods | ProcessGoods | EndRound
                           ) -> Verdict[GameState, Reason]:
    seat = move.player
    if isinstance(move, Transport):
        check = validate_transport(player.town, Move(move.good, move.count, move.origin,
                                                     move.destination))
        if check.town is None:
            return Verdict(None, check.violations)
        return Verdict(_with_player(state, seat, replace(player, town=check.town,
                                                          moved=True)))
    if isinstance(move, HaulGoods):
        hauled = haul(player.town, player.moved, player.hauled, move.hut, move.picks)
        if not isinstance(hauled, Town):
            return Verdict(None, hauled)
        return Verdict(_with_player(state, seat, replace(
            player, town=hauled, hauled=player.hauled | {move.hut})))
    if isinstance(move, ProcessGoods):
        town = processing_run(player.town, move.choices)
        if not isinstance(town, Town):
            return Verdict(None, town)
        after = replace(player, town=town, runs=player.runs + 1, moved=False,
                        hauled=frozenset())
        if state.round < ROUNDS:
            return Verdict(_after_simultaneous(state, seat, replace(after, done=True)))
        return Verdict(_with_player(state, seat, after))
    if not player.runs:
        return Verdict(None, (Violation(
            Reason.NO_PROCESSING_YET, FINAL_ROUND_RULE,
            NO_PROCESSING_YET(ends="fourth_round")),),)
    return Verdict(_after_simultaneous(state, seat, replace(player, done=True)))


# -- legal moves -----------------------------------------------------------------------

def _constructions(state: GameState) -> Iterator[Action]:
    """Passing; each building on offer the player can pay for, at each free position
    (paid by default from the town's buildings in order); each single trail built or
    upgraded (paid wood first). A client composes several trails into one action."""
    seat = state.current_player
    town = state.players[seat].town
    yield Pass(seat)
    positions = free_positions(town.tiles)
    for area in Area:
        for space in state.board.spaces(area):
            if space is None or not state.catalog[space.building].documented:
                continue
            payment = pay_from(town, state.catalog[space.building].cost)
            if payment is not None:
                yield from (BuildBuilding(seat, space.building, p, payment)
                            for p in positions)
    payments = {}
    for cost in (1, 2):
        goods = trail_payment(town, cost)
        payments[cost] = pay_from(town, goods) if goods is not None else None
    for work in (*trail_placements(town), *trail_upgrades(town)):
        payment = payments[work.cost]
        if payment is not None:
            yield BuildTrails(seat, (work,), payment)


def _transportation(state: GameState) -> Iterator[Action]:
    for seat in _pending(state):
        player = state.players[seat]
        yield from (Transport(seat, m.good, m.count, m.origin, m.destination)
                    for m in transports(player.town))
        yield ProcessGoods(seat)
        if state.round == ROUNDS and player.runs:
            yield EndRound(seat)


GAME: Game[Setup, GameState, Action, Reason, TownScore] = FoxgloveFarm()
"""The game, as the engine, the conformance tests and library users drive it (typed as
the protocol, so mypy checks that the class follows it)."""


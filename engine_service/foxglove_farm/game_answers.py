"""Foxglove Farm's answers on the game, written from rule values as their encodings
(:mod:`engine_service.wire`): states, actions, turns, legal moves, verdicts and replays,
and the built-in catalog. The towns in a state are joined by hand; the rest, of few fields
each, is built as messages and serialized into its place.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.foxglove_farm.v1 import catalog_pb2, game_pb2, planning_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm.catalog import PROVENANCED_FIELDS, TIERS
from tabletop_rules.foxglove_farm.catalog_format import builtin_catalog_version
from tabletop_rules.foxglove_farm.central_board import CentralBoard, Space, solo_outcome
from tabletop_rules.foxglove_farm.construction import Payment, TrailWork
from tabletop_rules.foxglove_farm.effect_format import effect_to_dict
from tabletop_rules.foxglove_farm.game_state import (
    Action,
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    EndRound,
    GameState,
    HaulGoods,
    Pass,
    ProcessGoods,
    Produce,
    Transport,
)
from tabletop_rules.game import ReplayResult, Turn
from tabletop_rules.verdicts import Verdict

from .. import wire
from ..replays import ReplayWriter
from .enums import GOOD_TO_PROTO, PHASE_TO_PROTO, SIDE_TO_PROTO
from .town_answers import (
    goods_to_proto,
    position_to_proto,
    requested_catalog_to_wire,
    score_to_wire,
    standings_to_proto,
    town_to_wire,
    violations_to_proto,
)

_EXPECTATIONS: dict[str | None, game_pb2.Expectation.ValueType] = {
    None if number == 0 else name.removeprefix("EXPECTATION_").lower(): number
    for name, number in game_pb2.Expectation.items()}
"""The rules' :class:`Turn` ``expected`` names (``"draw_tiles"``) to the enum."""


def _board(board: CentralBoard) -> game_pb2.CentralBoard:
    def spaces(area: Sequence[Space | None]) -> list[game_pb2.BoardSpace]:
        return [game_pb2.BoardSpace() if space is None else game_pb2.BoardSpace(
            stack=game_pb2.TileStack(building=space.building, count=space.count))
            for space in area]

    stacks = board.stacks
    return game_pb2.CentralBoard(offer=spaces(board.offer), c_spaces=spaces(board.c_spaces),
                                 stacks=game_pb2.StacksLeft(a=stacks.A, b=stacks.B, c=stacks.C))


_STATE_PLAYERS, _STATE_CATALOG = (wire.key(game_pb2.GameState.DESCRIPTOR, name)
                                  for name in ("players", "catalog"))
_PLAYER_TOWN = wire.key(game_pb2.Player.DESCRIPTOR, "town")


def state_to_wire(state: GameState) -> bytes:
    """A state's encoding: its players' towns joined by hand, the request's catalog
    definitions once, in the state."""
    rest = game_pb2.GameState(
        rules_version=state.rules_version, catalog_version=state.catalog_version,
        round=state.round, phase=PHASE_TO_PROTO[state.phase],
        start_player=state.start_player, current_player=state.current_player,
        board=_board(state.board))
    if state.solo is not None:
        rest.solo = state.solo
    return b"".join([
        rest.SerializeToString(), requested_catalog_to_wire(_STATE_CATALOG, state.catalog),
        *[wire.part(_STATE_PLAYERS, game_pb2.Player(
            name=p.name, passed=p.passed, done=p.done, runs=p.runs, moved=p.moved,
            hauled=[position_to_proto(h) for h in sorted(p.hauled)]).SerializeToString()
            + wire.part(_PLAYER_TOWN, town_to_wire(p.town, with_catalog=False)))
          for p in state.players]])


def _placed(parts: Sequence[tuple[fox.Position, fox.Goods]]) -> list[game_pb2.BuildingGoods]:
    return [game_pb2.BuildingGoods(row=position.row, col=position.col, goods=goods_to_proto(goods))
            for position, goods in parts]


def _paid(payment: Sequence[Payment]) -> list[game_pb2.BuildingGoods]:
    return _placed([(part.position, part.goods) for part in payment])


def _trail_work(work: TrailWork) -> game_pb2.TrailWork:
    return game_pb2.TrailWork(position=position_to_proto(work.position),
                              sides=[SIDE_TO_PROTO[s] for s in fox.SIDES if s in work.sides],
                              upgrade=work.upgrade)


def action_to_proto(action: Action) -> game_pb2.Action:
    match action:
        case Produce(player=player, choices=choices):
            return game_pb2.Action(produce=game_pb2.Produce(player=player,
                                                            choices=_placed(choices)))
        case BuildBuilding():
            build = game_pb2.BuildBuilding(
                player=action.player, building=action.building,
                position=position_to_proto(action.position), payment=_paid(action.payment))
            if action.gain is not None:
                build.gain.CopyFrom(goods_to_proto(action.gain))
            return game_pb2.Action(build_building=build)
        case BuildTrails(player=player, trails=trails, payment=payment):
            return game_pb2.Action(build_trails=game_pb2.BuildTrails(
                player=player, trails=[_trail_work(w) for w in trails], payment=_paid(payment)))
        case Pass(player=player):  # "pass" is a Python keyword: the field is reached by name
            message = game_pb2.Action()
            getattr(message, "pass").player = player
            getattr(message, "pass").SetInParent()
            return message
        case Transport():
            return game_pb2.Action(transport=game_pb2.Transport(
                player=action.player, good=GOOD_TO_PROTO[action.good], count=action.count,
                origin=position_to_proto(action.origin), destination=position_to_proto(action.destination)))
        case HaulGoods(player=player, hut=hut, picks=picks):
            return game_pb2.Action(haul=game_pb2.HaulGoods(
                player=player, hut=position_to_proto(hut),
                picks=[planning_pb2.HaulPick(good=GOOD_TO_PROTO[p.good], count=p.count,
                                             origin=position_to_proto(p.origin)) for p in picks]))
        case ProcessGoods(player=player, choices=choices):
            return game_pb2.Action(process=game_pb2.ProcessGoods(player=player,
                                                                 choices=_placed(choices)))
        case EndRound(player=player):
            return game_pb2.Action(end_round=game_pb2.EndRound(player=player))
        case DrawTiles(tiles=tiles):
            return game_pb2.Action(draw_tiles=game_pb2.DrawTiles(tiles=tiles))
    raise TypeError(f"not a Foxglove Farm action: {action!r}")


def turn_to_proto(turn: Turn) -> game_pb2.Turn:
    message = game_pb2.Turn(expected=_EXPECTATIONS[turn.expected])
    if turn.player is not None:
        message.player = turn.player
    return message


def legal_moves_to_wire(state: GameState, turn: Turn, moves: Sequence[Action]) -> bytes:
    """The turn, the legal actions, and every building holding goods: what can pay."""
    return service_pb2.ListLegalMovesResponse(
        turn=turn_to_proto(turn), moves=[action_to_proto(m) for m in moves],
        goods_on_hand=[game_pb2.GoodsOnHand(player=seat, row=tile.position.row,
                                            col=tile.position.col, building=tile.building.id,
                                            goods=goods_to_proto(tile.goods))
                       for seat, player in enumerate(state.players)
                       for tile in player.town.buildings if any(tile.goods)]
    ).SerializeToString()


_NEW_GAME_STATE = wire.key(service_pb2.NewGameResponse.DESCRIPTOR, "state")
_VERDICT_LEGAL, _VERDICT_NEXT_STATE, _VERDICT_VIOLATIONS = (
    wire.key(service_pb2.ValidateActionResponse.DESCRIPTOR, name)
    for name in ("legal", "next_state", "violations"))


def new_game_to_wire(state: GameState) -> bytes:
    """The answer to NewGame."""
    return wire.part(_NEW_GAME_STATE, state_to_wire(state))


def action_verdict_to_wire(verdict: Verdict[GameState, fox.Reason]) -> bytes:
    """The answer to ValidateAction: the violations, or the state after."""
    return b"".join([
        wire.number(_VERDICT_LEGAL, verdict.legal),
        b"" if verdict.next_state is None else wire.part(
            _VERDICT_NEXT_STATE, state_to_wire(verdict.next_state)),
        wire.messages(_VERDICT_VIOLATIONS, violations_to_proto(verdict.violations, "action"))])


_REPLAY = ReplayWriter(
    service_pb2.ReplayGameResponse.DESCRIPTOR, state_to_wire,
    lambda violations, index: violations_to_proto(violations, "actions", index),
    standings_to_proto, score_to_wire)
_REPLAY_SOLO = wire.key(service_pb2.ReplayGameResponse.DESCRIPTOR, "solo")


def replay_to_wire(result: ReplayResult[GameState, fox.Reason, fox.TownScore]) -> bytes:
    """The answer to ReplayGame (:class:`.ReplayWriter`), and a solo game's outcome."""
    answer = _REPLAY.write(result)
    if result.ranking is None or result.state.solo is None:
        return answer
    # one player: the one standing's total
    solo = solo_outcome(result.state.solo, result.ranking.standings[0].score.total)
    return answer + wire.message(_REPLAY_SOLO, service_pb2.SoloOutcome(
        setup=solo.setup, name=solo.name, thresholds=solo.thresholds, reached=solo.reached))


# -- the catalog --------------------------------------------------------------------------

def catalog_to_wire(catalog: fox.Catalog) -> bytes:
    """The answer to GetCatalog: the built-in ``catalog``, by id, each building as the
    definition format has it."""
    return service_pb2.GetCatalogResponse(
        catalog_version=builtin_catalog_version(),
        buildings=[_catalog_building(catalog[id_]) for id_ in sorted(catalog.buildings)]
    ).SerializeToString()


def _catalog_building(building: fox.Building) -> catalog_pb2.CatalogBuilding:
    fields = PROVENANCED_FIELDS if building.documented else ("tiers",)
    message = catalog_pb2.CatalogBuilding(
        id=building.id, name=building.name,
        tiers=sorted(building.tiers, key=TIERS.index), documented=building.documented,
        expert=building.expert, slots=building.slots, cost=goods_to_proto(building.cost),
        text=building.text, provisional=building.provisional,
        provenance={name: catalog_pb2.Provenance(source=building.source_of(name).source,
                                                 note=building.source_of(name).note)
                    for name in fields})
    for effect in building.effects:
        message.effects.add().update(effect_to_dict(effect))
    return message

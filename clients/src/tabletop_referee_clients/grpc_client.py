"""A gRPC client over the engine's protobuf API, one namespace per game.

Every call takes protobuf messages and answers messages, or takes the contract's JSON (the
REST bodies' dicts) and answers the contract's JSON, converted by :mod:`.contract_json`:
what you send is what you get back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Literal, overload

import grpc
from google.protobuf import wrappers_pb2
from google.protobuf.message import Message
from google.rpc import error_details_pb2

from referee.common.v1 import params_pb2
from referee.downtown_farmers_market.v1 import board_pb2, scoring_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as dfm_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as dfm_grpc
from referee.downtown_farmers_market.v1 import game_pb2 as dfm_game_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as ff_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2_grpc as ff_grpc
from referee.foxglove_farm.v1 import game_pb2 as ff_game_pb2
from referee.foxglove_farm.v1 import planning_pb2 as ff_planning_pb2
from referee.foxglove_farm.v1 import scoring_pb2 as ff_scoring_pb2
from referee.foxglove_farm.v1 import town_pb2 as ff_town_pb2
from referee.foxglove_farm.v1 import transport_pb2 as ff_transport_pb2
from referee.v1 import referee_service_pb2, referee_service_pb2_grpc
from referee_wire.rich_status import field_violation_params, status_details

from .contract_json import to_json, to_message
from .errors import InvalidRequestError, RefereeError

Json = dict[str, Any]

SERVING = 1
"""``grpc.health.v1.HealthCheckResponse.SERVING``."""


class GameGrpc:
    """What every game's namespace shares (a new game's subclasses it): a stub of its
    ``STUB`` kind on the client's channel, and one call, in messages or in the contract's
    JSON."""

    STUB: ClassVar[type[Any]]
    """The service's stub class (called with the channel)."""

    def __init__(self, channel: grpc.Channel, timeout: float) -> None:
        self._stub = self.STUB(channel)
        self.timeout = timeout

    def _call(self, method: Callable[..., Message], request_type: type[Message],
              answer: str | None, **arguments: Any) -> Any:
        """Call ``method`` with a ``request_type`` built from ``arguments`` (the request's
        fields); its ``answer`` field (or the whole response) in the form the arguments
        came in: messages when they all are, contract JSON otherwise."""
        as_json = not _are_messages(arguments.values())
        request = (to_message(request_type, arguments) if as_json
                   else request_type(**arguments))
        response = _ask(method, request, self.timeout, as_json=False)
        picked = getattr(response, answer) if answer else response
        if isinstance(picked, Message):
            return to_json(picked) if as_json else picked
        return [to_json(item) if as_json else item for item in picked]


def _are_messages(arguments: Iterable[Any]) -> bool:
    """True for the message API: every argument a message, or a list of them. Anything
    else is the contract's JSON, read by :func:`.to_message`: JSON that no message can
    carry (``"players": "Ana"``) is refused by pointer, as the gateway refuses it."""
    return all(isinstance(argument, Message) or (
        isinstance(argument, Sequence) and not isinstance(argument, (str, bytes))
        and all(isinstance(item, Message) for item in argument)) for argument in arguments)


def _ask(method: Callable[..., Message], request: Message, timeout: float,
         as_json: bool) -> Any:
    """Call ``method`` with ``request``: its answer as a message or, ``as_json``, as the
    contract's JSON; a failure as the client's error."""
    try:
        response = method(request, timeout=timeout)
    except grpc.RpcError as error:
        raise error_from_status(error) from None
    return to_json(response) if as_json else response


class DowntownFarmersMarketGrpc(GameGrpc):
    """``DowntownFarmersMarketService``, with the same calls as the REST client's."""

    STUB = dfm_grpc.DowntownFarmersMarketServiceStub
    _stub: dfm_grpc.DowntownFarmersMarketServiceStub

    @overload
    def score_board(self, board: Json) -> Json: ...
    @overload
    def score_board(self, board: board_pb2.Board) -> scoring_pb2.BoardScore: ...

    def score_board(self, board: Any) -> Any:
        """Score one board."""
        return self._call(self._stub.ScoreBoard, dfm_pb2.ScoreBoardRequest, "score",
                          board=board)

    @overload
    def rank_players(self, players: list[Json]) -> Json: ...
    @overload
    def rank_players(self, players: Sequence[scoring_pb2.PlayerBoard]
                     ) -> dfm_pb2.RankPlayersResponse: ...

    def rank_players(self, players: Any) -> Any:
        """Rank named boards."""
        return self._call(self._stub.RankPlayers, dfm_pb2.RankPlayersRequest, None,
                          players=players)

    @overload
    def new_game(self, setup: Json) -> Json: ...
    @overload
    def new_game(self, setup: dfm_game_pb2.Setup) -> dfm_game_pb2.GameState: ...

    def new_game(self, setup: Any) -> Any:
        """Start a game: the state before the first take."""
        return self._call(self._stub.NewGame, dfm_pb2.NewGameRequest, "state", setup=setup)

    @overload
    def legal_moves(self, state: Json) -> list[Json]: ...
    @overload
    def legal_moves(self, state: dfm_game_pb2.GameState) -> list[dfm_game_pb2.Move]: ...

    def legal_moves(self, state: Any) -> Any:
        """Every legal take or discard in ``state`` (none at a reveal or once it is over)."""
        return self._call(self._stub.ListLegalMoves, dfm_pb2.ListLegalMovesRequest, "moves",
                          state=state)

    @overload
    def validate_move(self, state: Json, move: Json) -> Json: ...
    @overload
    def validate_move(self, state: dfm_game_pb2.GameState, move: dfm_game_pb2.Move
                      ) -> dfm_pb2.ValidateMoveResponse: ...

    def validate_move(self, state: Any, move: Any) -> Any:
        """Judge ``move`` in ``state``: ``legal`` and the next state, or the violations."""
        return self._call(self._stub.ValidateMove, dfm_pb2.ValidateMoveRequest, None,
                          state=state, move=move)

    @overload
    def replay_game(self, setup: Json, moves: list[Json]) -> Json: ...
    @overload
    def replay_game(self, setup: dfm_game_pb2.Setup, moves: Sequence[dfm_game_pb2.Move]
                    ) -> dfm_pb2.ReplayGameResponse: ...

    def replay_game(self, setup: Any, moves: Any) -> Any:
        """Replay a game's log to its end or first illegal move, with the result if over."""
        return self._call(self._stub.ReplayGame, dfm_pb2.ReplayGameRequest, None,
                          setup=setup, moves=moves)

    @overload
    def challenge_types(self, *, as_json: Literal[False] = False
                        ) -> dfm_pb2.ListChallengeTypesResponse: ...
    @overload
    def challenge_types(self, *, as_json: Literal[True]) -> Json: ...

    def challenge_types(self, *, as_json: bool = False) -> Any:
        """The seven Challenge types, their parameters and the values each accepts."""
        return _ask(self._stub.ListChallengeTypes, dfm_pb2.ListChallengeTypesRequest(),
                    self.timeout, as_json)


class FoxgloveFarmGrpc(GameGrpc):
    """``FoxgloveFarmService``, with the same calls as the REST client's."""

    STUB = ff_grpc.FoxgloveFarmServiceStub
    _stub: ff_grpc.FoxgloveFarmServiceStub

    @overload
    def score_town(self, town: Json) -> Json: ...
    @overload
    def score_town(self, town: ff_town_pb2.Town) -> ff_scoring_pb2.TownScore: ...

    def score_town(self, town: Any) -> Any:
        """Score one town."""
        return self._call(self._stub.ScoreTown, ff_pb2.ScoreTownRequest, "score", town=town)

    @overload
    def rank_towns(self, players: list[Json]) -> Json: ...
    @overload
    def rank_towns(self, players: Sequence[ff_scoring_pb2.PlayerTown]
                   ) -> ff_pb2.RankPlayersResponse: ...

    def rank_towns(self, players: Any) -> Any:
        """Rank named towns."""
        return self._call(self._stub.RankPlayers, ff_pb2.RankPlayersRequest, None,
                          players=players)

    @overload
    def validate_transport(self, town: Json, move: Json) -> Json: ...
    @overload
    def validate_transport(self, town: ff_town_pb2.Town, move: ff_transport_pb2.Move
                           ) -> ff_pb2.ValidateTransportResponse: ...

    def validate_transport(self, town: Any, move: Any) -> Any:
        """Rule on moving goods in ``town``; an illegal move answers ``legal`` false."""
        return self._call(self._stub.ValidateTransport, ff_pb2.ValidateTransportRequest, None,
                          town=town, move=move)

    @overload
    def plan_final_round(self, town: Json) -> Json: ...
    @overload
    def plan_final_round(self, town: ff_town_pb2.Town) -> ff_planning_pb2.FinalRoundPlan: ...

    def plan_final_round(self, town: Any) -> Any:
        """The best final total reachable from ``town``, and a plan reaching it."""
        return self._call(self._stub.PlanFinalRound, ff_pb2.PlanFinalRoundRequest, "plan",
                          town=town)

    @overload
    def new_game(self, setup: Json) -> Json: ...
    @overload
    def new_game(self, setup: ff_game_pb2.Setup) -> ff_game_pb2.GameState: ...

    def new_game(self, setup: Any) -> Any:
        """Start a game of four rounds: the state before the first production."""
        return self._call(self._stub.NewGame, ff_pb2.NewGameRequest, "state", setup=setup)

    @overload
    def legal_moves(self, state: Json) -> Json: ...
    @overload
    def legal_moves(self, state: ff_game_pb2.GameState) -> ff_pb2.ListLegalMovesResponse: ...

    def legal_moves(self, state: Any) -> Any:
        """The ``turn``, every legal action (``moves``) and the ``goods_on_hand`` in
        ``state``."""
        return self._call(self._stub.ListLegalMoves, ff_pb2.ListLegalMovesRequest, None,
                          state=state)

    @overload
    def validate_action(self, state: Json, action: Json) -> Json: ...
    @overload
    def validate_action(self, state: ff_game_pb2.GameState, action: ff_game_pb2.Action
                        ) -> ff_pb2.ValidateActionResponse: ...

    def validate_action(self, state: Any, action: Any) -> Any:
        """Judge ``action`` in ``state``: ``legal`` and the next state, or the violations."""
        return self._call(self._stub.ValidateAction, ff_pb2.ValidateActionRequest, None,
                          state=state, action=action)

    @overload
    def replay_game(self, setup: Json, actions: list[Json]) -> Json: ...
    @overload
    def replay_game(self, setup: ff_game_pb2.Setup, actions: Sequence[ff_game_pb2.Action]
                    ) -> ff_pb2.ReplayGameResponse: ...

    def replay_game(self, setup: Any, actions: Any) -> Any:
        """Replay a game's log to its end or first illegal action, with the result if over."""
        return self._call(self._stub.ReplayGame, ff_pb2.ReplayGameRequest, None,
                          setup=setup, actions=actions)

    @overload
    def catalog(self, *, as_json: Literal[False] = False) -> ff_pb2.GetCatalogResponse: ...
    @overload
    def catalog(self, *, as_json: Literal[True]) -> Json: ...

    def catalog(self, *, as_json: bool = False) -> Any:
        """The built-in building catalog, with each value's provenance and its version."""
        return _ask(self._stub.GetCatalog, ff_pb2.GetCatalogRequest(), self.timeout, as_json)


class GrpcClient:
    """Calls the engine: ``client.foxglove_farm.score_town(town)``; errors are
    :class:`RefereeError`, invalid requests :class:`InvalidRequestError` with JSON
    Pointers into the request's JSON form."""

    def __init__(self, address: str = "127.0.0.1:50051", timeout: float = 10.0) -> None:
        self.timeout = timeout
        self.channel = grpc.insecure_channel(address)
        self.downtown_farmers_market = DowntownFarmersMarketGrpc(self.channel, timeout)
        self.foxglove_farm = FoxgloveFarmGrpc(self.channel, timeout)
        self._referee = referee_service_pb2_grpc.RefereeServiceStub(self.channel)

    @overload
    def version(self, *, as_json: Literal[False] = False
                ) -> referee_service_pb2.GetVersionResponse: ...
    @overload
    def version(self, *, as_json: Literal[True]) -> Json: ...

    def version(self, *, as_json: bool = False) -> Any:
        """The engine's release, and the rules and catalog versions its answers name."""
        return _ask(self._referee.GetVersion, referee_service_pb2.GetVersionRequest(),
                    self.timeout, as_json)

    def ready(self) -> bool:
        """True when the engine's health service says SERVING.

        The health messages are read as the wire-compatible ``StringValue`` (the service
        name) and ``Int32Value`` (the status), so the clients need no grpcio-health-checking.
        """
        check = self.channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=wrappers_pb2.StringValue.SerializeToString,
            response_deserializer=wrappers_pb2.Int32Value.FromString)
        try:
            status = check(wrappers_pb2.StringValue(), timeout=self.timeout).value
        except grpc.RpcError:
            return False
        return status == SERVING

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> GrpcClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def error_from_status(error: grpc.RpcError) -> RefereeError:
    code = error.code()
    detail = error.details() or ""
    if code is not grpc.StatusCode.INVALID_ARGUMENT:
        return RefereeError(code.name, code.name.replace("_", " ").capitalize(), detail)
    return InvalidRequestError(code.name, "Invalid argument", detail, field_violations(error),
                               field_violation_codes(error))


def field_violation_codes(error: grpc.RpcError) -> list[tuple[str, dict[str, Any]]]:
    """``(code, params)`` for each field violation: its ``reason``, and its params from
    the ``BadRequestParams`` detail as the contract's JSON writes them (none when the
    status carries no such detail)."""
    reasons = [v.reason for bad_request in status_details(error, error_details_pb2.BadRequest)
               for v in bad_request.field_violations]
    params = field_violation_params(error)
    if len(params) != len(reasons):
        params = [[] for _ in reasons]
    return [(reason, {p.name: _param_value(p) for p in each})
            for reason, each in zip(reasons, params)]


def _param_value(param: params_pb2.Param) -> Any:
    values = [getattr(v, kind) if (kind := v.WhichOneof("kind")) else "" for v in param.values]
    return values if param.list else (values[0] if values else "")


def field_violations(error: grpc.RpcError) -> list[tuple[str, str]]:
    """``(JSON Pointer, description)`` for each field violation in the error's
    ``google.rpc.BadRequest`` details."""
    return [(v.field, v.description) for bad_request in
            status_details(error, error_details_pb2.BadRequest)
            for v in bad_request.field_violations]

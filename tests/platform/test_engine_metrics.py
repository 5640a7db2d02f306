"""The engine's own observations, in-process: calls counted and timed per method and code
(refusals included), the games' counters, request ids on the log lines written during a
call, and the JSON and text log formats."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from prometheus_client import REGISTRY

from api_gateway.resources.downtown_farmers_market.schemas import BoardSchema
from tabletop_referee_clients import GrpcClient
from engine_service import calls, logs
from engine_service.calls import CallLimits, method_name
from engine_service.downtown_farmers_market import servicer as dfm_servicer
from engine_service.downtown_farmers_market.servicer import SERVICE as DFM_SERVICE
from engine_service.foxglove_farm.servicer import SERVICE as FF_SERVICE
from engine_service.server import Engine, create_server
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as dfm_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as dfm_grpc

from ..sample_boards import SIMPLE_BOARD
from .foxglove_towns import KULY

REPO = Path(__file__).resolve().parents[2]
DFM = "downtown-farmers-market"
FF = "foxglove-farm"
SETUP = {"mode": "standard",
         "players": [{"name": name, "board": {k: v for k, v in SIMPLE_BOARD.items()
                                              if k != "grid"}} for name in ("Ana", "Ben")],
         "face_up": [["corn"], ["egg", "corn"], ["milk"], ["bread", "bread"], ["cheese"]]}


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


class Counts:
    """Samples of the default registry before a test's calls, to read what they added."""

    def __init__(self, *series: tuple[str, dict[str, str]]) -> None:
        self._series = series
        self._before = [sample(name, **labels) for name, labels in series]

    def added(self) -> list[float]:
        return [sample(name, **labels) - before
                for (name, labels), before in zip(self._series, self._before, strict=True)]


def calls_of(service: Any, method: str, code: str) -> tuple[str, dict[str, str]]:
    return ("referee_engine_calls_total",
            {"service": service.full_name, "method": method, "code": code})


def timed(service: Any, method: str) -> tuple[str, dict[str, str]]:
    return ("referee_engine_call_seconds_count",
            {"service": service.full_name, "method": method})


def raw_call(address: str, method: str, payload: bytes,
             metadata: tuple[tuple[str, str], ...] = ()) -> grpc.StatusCode:
    with grpc.insecure_channel(address) as channel:
        try:
            channel.unary_unary(method)(payload, timeout=5, metadata=metadata)
        except grpc.RpcError as error:
            return error.code()  # type: ignore[no-any-return]
    return grpc.StatusCode.OK


def test_every_call_is_counted_by_service_method_and_code(engine_address: str,
                                                           grpc_client: GrpcClient) -> None:
    score = method_name(DFM_SERVICE, "ScoreBoard")
    counts = Counts(calls_of(DFM_SERVICE, "ScoreBoard", "OK"),
                    calls_of(DFM_SERVICE, "ScoreBoard", "INVALID_ARGUMENT"),
                    timed(DFM_SERVICE, "ScoreBoard"),
                    calls_of(FF_SERVICE, "RankPlayers", "OK"),
                    calls_of(DFM_SERVICE, "RankPlayers", "OK"))
    grpc_client.downtown_farmers_market.score_board(SIMPLE_BOARD)
    grpc_client.downtown_farmers_market.score_board(SIMPLE_BOARD)
    assert raw_call(engine_address, score, b"\xff\xff\xff") is grpc.StatusCode.INVALID_ARGUMENT
    empty = dfm_pb2.ScoreBoardRequest().SerializeToString()  # parses, but no board
    assert raw_call(engine_address, score, empty) is grpc.StatusCode.INVALID_ARGUMENT
    grpc_client.foxglove_farm.rank_towns([{"name": "Kuly", "town": KULY["town"]}])
    assert counts.added() == [2, 2, 4, 1, 0]


@pytest.fixture(scope="module")
def seatless_engine() -> Iterator[Engine]:
    """One worker thread (calls in a row share it) and no seat for plans."""
    built = create_server("127.0.0.1:0", max_workers=1, limits=CallLimits(
        seats={method_name(FF_SERVICE, "PlanFinalRound"): 0}))
    built.server.start()
    yield built
    built.server.stop(0)


def test_calls_refused_for_want_of_a_seat_are_counted(seatless_engine: Engine) -> None:
    counts = Counts(calls_of(FF_SERVICE, "PlanFinalRound", "RESOURCE_EXHAUSTED"),
                    calls_of(FF_SERVICE, "PlanFinalRound", "OK"),
                    timed(FF_SERVICE, "PlanFinalRound"))
    code = raw_call(f"127.0.0.1:{seatless_engine.port}",
                    method_name(FF_SERVICE, "PlanFinalRound"), b"")
    assert code is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert counts.added() == [1, 0, 1]


def test_each_game_counts_boards_moves_and_plans(grpc_client: GrpcClient) -> None:
    counts = Counts(("referee_engine_boards_scored_total", {"game": DFM}),
                    ("referee_engine_boards_scored_total", {"game": FF}),
                    ("referee_engine_moves_judged_total", {"game": DFM, "legal": "true"}),
                    ("referee_engine_moves_judged_total", {"game": DFM, "legal": "false"}),
                    ("referee_engine_moves_judged_total", {"game": FF, "legal": "true"}),
                    ("referee_engine_moves_judged_total", {"game": FF, "legal": "false"}))
    dfm, ff = grpc_client.downtown_farmers_market, grpc_client.foxglove_farm
    dfm.score_board(SIMPLE_BOARD)
    dfm.rank_players([{"name": "Ana", "board": SIMPLE_BOARD},
                      {"name": "Ben", "board": SIMPLE_BOARD}])  # two boards scored
    ff.score_town(KULY["town"])
    state = dfm.new_game(SETUP)
    legal = dfm.legal_moves(state)[0]
    assert dfm.validate_move(state, legal)["legal"] is True
    out_of_turn = {**legal, "player": 1}
    assert dfm.validate_move(state, out_of_turn)["legal"] is False
    assert dfm.validate_move(state, out_of_turn)["legal"] is False
    first, second = (step["move"] for step in KULY["transportation"][:2])
    assert ff.validate_transport(KULY["town"], first)["legal"] is True
    assert ff.validate_transport(KULY["town"], second)["legal"] is False  # needs the first
    assert counts.added() == [3, 1, 1, 2, 1, 1]


def test_plans_are_counted_by_whether_they_are_proven_optimal(grpc_client: GrpcClient) -> None:
    counts = Counts(("referee_engine_plans_total", {"optimal": "true"}),
                    ("referee_engine_plans_total", {"optimal": "false"}))
    plan = grpc_client.foxglove_farm.plan_final_round(KULY["town"])
    assert counts.added() == ([1, 0] if plan.get("optimal") else [0, 1])


class Collected(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def call_records() -> Iterator[list[logging.LogRecord]]:
    """The engine's records at INFO and above, through the filter its handler has."""
    handler = Collected()
    handler.addFilter(logs.CallContext())
    logger = logging.getLogger("engine_service")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)
    logger.setLevel(level)


def test_a_failed_call_is_logged_with_its_request_id(seatless_engine: Engine,
                                                     call_records: list[logging.LogRecord]
                                                     ) -> None:
    address = f"127.0.0.1:{seatless_engine.port}"
    score = method_name(DFM_SERVICE, "ScoreBoard")
    raw_call(address, score, b"\xff", metadata=(("x-request-id", "req-42"),))
    raw_call(address, score, b"\xff")  # the same thread, no id: the last one must not stay
    raw_call(address, score, b"", metadata=(("x-request-id", "no-board"),))
    assert [(r.getMessage().split(" in ")[0], getattr(r, "request_id", None), r.code)
            for r in call_records] == [
        ("ScoreBoard answered INVALID_ARGUMENT", "req-42", "INVALID_ARGUMENT"),
        ("ScoreBoard answered INVALID_ARGUMENT", None, "INVALID_ARGUMENT"),
        ("ScoreBoard answered INVALID_ARGUMENT", "no-board", "INVALID_ARGUMENT"),
    ]


def test_lines_written_inside_a_call_carry_its_request_id(
        engine_address: str, call_records: list[logging.LogRecord],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug in the rules")

    monkeypatch.setattr(dfm_servicer.dfm, "score_board", broken)
    with grpc.insecure_channel(engine_address) as channel:
        stub = dfm_grpc.DowntownFarmersMarketServiceStub(channel)
        request = dfm_pb2.ScoreBoardRequest(board=BoardSchema().load(SIMPLE_BOARD))
        with pytest.raises(grpc.RpcError) as caught:
            stub.ScoreBoard(request, timeout=5, metadata=(("x-request-id", "bug-1"),))
    assert caught.value.code() is grpc.StatusCode.INTERNAL
    assert [(r.name, r.levelname, getattr(r, "request_id", None)) for r in call_records] == [
        ("engine_service.errors", "ERROR", "bug-1"),  # the servicer's own line
        ("engine_service.calls", "INFO", "bug-1"),
    ]


def test_a_slow_call_is_logged_even_when_it_succeeds(grpc_client: GrpcClient,
                                                     call_records: list[logging.LogRecord],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    grpc_client.downtown_farmers_market.score_board(SIMPLE_BOARD)
    assert not call_records, "an OK call below the threshold is not logged"
    monkeypatch.setattr(calls, "SLOW_CALL_SECONDS", 0.0)
    grpc_client.downtown_farmers_market.score_board(SIMPLE_BOARD)
    [record] = call_records
    assert record.getMessage().startswith("ScoreBoard answered OK in ")
    assert (record.levelname, record.code, record.method) == ("INFO", "OK", "ScoreBoard")


def _record(**extra: Any) -> logging.LogRecord:
    record = logging.LogRecord("engine_service.calls", logging.INFO, __file__, 1,
                               "ScoreBoard answered %s", ("OK",), None)
    record.__dict__.update(extra)
    return record


def test_json_lines_carry_the_agreed_members() -> None:
    line = json.loads(logs.formatter("json").format(_record(request_id="r1", trace_id="ab")))
    assert line.keys() >= {"ts", "level", "process", "logger", "message", "request_id",
                           "trace_id"}
    assert (line["level"], line["process"], line["logger"], line["message"],
            line["request_id"], line["trace_id"]) == (
        "INFO", "engine", "engine_service.calls", "ScoreBoard answered OK", "r1", "ab")
    assert line["ts"].endswith("+00:00")
    bare = json.loads(logs.formatter("json").format(_record()))
    assert "request_id" not in bare and "trace_id" not in bare and bare["process"] == "engine"


def test_text_lines_name_the_request() -> None:
    text = logs.formatter("text")
    assert text.format(_record(request_id="r1")).endswith(
        " engine INFO engine_service.calls [r1]: ScoreBoard answered OK")
    assert "[-]: ScoreBoard answered OK" in text.format(_record())


def test_call_context_adds_only_what_is_known() -> None:
    record = _record()
    token = logs.REQUEST_ID.set("r7")
    try:
        logs.CallContext(trace_ids=lambda: None).filter(record)
    finally:
        logs.REQUEST_ID.reset(token)
    assert record.request_id == "r7" and not hasattr(record, "trace_id")
    record = _record()
    logs.CallContext(trace_ids=lambda: "0af7").filter(record)
    assert record.trace_id == "0af7" and not hasattr(record, "request_id")


def test_an_engine_without_tracing_does_not_load_opentelemetry() -> None:
    script = ("import sys; from engine_service import __main__, server; "
              "server.create_server('127.0.0.1:0').server.stop(0); "
              "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))")
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                            text=True, check=True, timeout=60)
    assert result.stdout.strip() == "[]", result.stdout

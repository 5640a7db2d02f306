"""The gateway's channel to the engines (api_gateway/engine.py): the target it makes of
``ENGINE_ADDRESS``, its service config, and, against real in-process engines, balancing,
retries, client-side health checking, TLS and the request id it passes on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
import pytest
import trustme
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from referee.downtown_farmers_market.v1 import (
    downtown_farmers_market_service_pb2 as dfm_pb2,
)

from api_gateway import create_app, engine
from api_gateway.config import DefaultConfig
from engine_service import server
from engine_service.server import Engine, create_server

from ..sample_boards import SIMPLE_BOARD

SCORE = "/v1/downtown-farmers-market/score"


# --- the target -----------------------------------------------------------------------


@pytest.mark.parametrize(("address", "target"), [
    ("127.0.0.1:50051", "127.0.0.1:50051"),
    ("engine:50051", "engine:50051"),
    ("dns:///engine-headless.referee.svc.cluster.local:50051",
     "dns:///engine-headless.referee.svc.cluster.local:50051"),
    ("  10.0.0.7:50051 ", "10.0.0.7:50051"),
    ("127.0.0.1:50051,127.0.0.1:50052", "ipv4:127.0.0.1:50051,127.0.0.1:50052"),
    ("10.0.0.1:50051, 10.0.0.2:50051 ,10.0.0.3:50051",
     "ipv4:10.0.0.1:50051,10.0.0.2:50051,10.0.0.3:50051"),
    ("[::1]:50051,[fd00::2]:50051", "ipv6:[::1]:50051,[fd00::2]:50051"),
])
def test_engine_address_becomes_a_grpc_target(address: str, target: str) -> None:
    assert engine.engine_target(address) == target


@pytest.mark.parametrize(("address", "named"), [
    ("", "is empty"),
    ("127.0.0.1:50051,[::1]:50051", "mixes IPv4 and IPv6"),
    ("engine-a:50051,engine-b:50051", "'engine-a:50051' is not an IP address"),
    ("dns:///engine:50051,dns:///other:50051", "is not an IP address"),
    ("127.0.0.1:50051,", "'' is not an IP address"),
    ("127.0.0.1,127.0.0.2:50051", "'127.0.0.1' is not an IP address"),
    ("127.0.0.1:0,127.0.0.1:50051", "'127.0.0.1:0'"),
    ("127.0.0.1:65536,127.0.0.1:50051", "'127.0.0.1:65536'"),
    ("127.0.0.1:http,127.0.0.1:50051", "'127.0.0.1:http'"),
    ("::1:50051,::1:50052", "'::1:50051'"),
    ("[127.0.0.1]:1,[127.0.0.1]:2", "'[127.0.0.1]:1'"),
])
def test_a_malformed_engine_address_is_refused_at_startup(address: str, named: str) -> None:
    with pytest.raises(engine.SettingsError, match="REFEREE_ENGINE_ADDRESS") as caught:
        create_app({"ENGINE_ADDRESS": address})
    assert named in str(caught.value)


# --- the service config ---------------------------------------------------------------


def served_methods(address: str) -> dict[str, list[str]]:
    """Every method of every game service the engine serves, read from its reflection
    service (the generated descriptors it registered): service -> method names."""
    with grpc.insecure_channel(address) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        pool = DescriptorPool(database)
        names = [name for name in database.get_services()
                 if not name.startswith("grpc.")]  # health, reflection
        return {name: [m.name for m in pool.FindServiceByName(name).methods] for name in names}


def test_service_config_retries_every_method_of_every_game_service(
        engine_address: str) -> None:
    config = json.loads(engine.service_config())
    assert config["loadBalancingConfig"] == [{"round_robin": {}}]
    assert config["healthCheckConfig"] == {"serviceName": ""}
    served = served_methods(engine_address)
    assert len(served) >= 2 and set(served) == set(engine.GAME_SERVICES)
    for service, methods in served.items():
        for method in methods:
            policies = [entry["retryPolicy"] for entry in config["methodConfig"]
                        for name in entry["name"]
                        if name == {"service": service}
                        or name == {"service": service, "method": method}]
            assert len(policies) == 1, f"{service}/{method}: {policies}"
            policy = policies[0]
            assert policy["retryableStatusCodes"] == ["UNAVAILABLE"], policy
            assert 3 <= policy["maxAttempts"] <= 5, policy
            assert float(policy["maxBackoff"].rstrip("s")) <= 1, policy
    options = dict(engine.CHANNEL_OPTIONS)
    assert options["grpc.service_config"] == engine.service_config()
    assert options["grpc.enable_retries"] == 1


def test_keepalive_notices_a_hung_engine_within_a_second() -> None:
    """The ping timeout (grpc's TCP_USER_TIMEOUT too) ends a connection to a vanished or
    hung engine well before a call's deadline, so the call is retried on another engine;
    busy or idle, within a second; and the engine accepts pings that often."""
    options = dict(engine.CHANNEL_OPTIONS)
    assert options["grpc.keepalive_timeout_ms"] < DefaultConfig.ENGINE_TIMEOUT_SECONDS * 1000 / 2
    assert options["grpc.keepalive_time_ms"] + options["grpc.keepalive_timeout_ms"] <= 1_000
    assert options["grpc.keepalive_time_ms"] >= 2 * server.MIN_PING_INTERVAL_MS
    assert options["grpc.keepalive_permit_without_calls"] == 1
    assert options["grpc.http2.max_pings_without_data"] == 0
    assert options["grpc.http2.ping_timeout_ms"] == options["grpc.keepalive_timeout_ms"]


# --- real engines ---------------------------------------------------------------------


@pytest.fixture
def engines() -> Iterator[list[Engine]]:
    built = [create_server("127.0.0.1:0", max_workers=4) for _ in range(2)]
    for one in built:
        one.server.start()
    yield built
    for one in built:
        one.server.stop(0)


def listed(engines: list[Engine]) -> str:
    return ",".join(f"127.0.0.1:{one.port}" for one in engines)


def test_a_listed_engine_that_stops_costs_no_request(engines: list[Engine]) -> None:
    client = create_app({"ENGINE_ADDRESS": listed(engines)}).test_client()
    assert client.get("/readyz").status_code == 200
    for _ in range(10):
        assert client.post(SCORE, json=SIMPLE_BOARD).status_code == 200
    engines[0].server.stop(0)
    answers = [client.post(SCORE, json=SIMPLE_BOARD).status_code for _ in range(30)]
    assert answers == [200] * 30
    assert client.get("/readyz").status_code == 200  # one engine serves
    engines[1].server.stop(0)
    answer = client.post(SCORE, json=SIMPLE_BOARD)
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) > 0
    assert client.get("/readyz").status_code == 503


def test_a_draining_engine_gets_no_calls(engines: list[Engine]) -> None:
    """Client-side health checking: an engine that says NOT_SERVING (draining) is left out
    of the balancing while it still accepts calls."""
    client = create_app({"ENGINE_ADDRESS": listed(engines)}).test_client()
    assert client.post(SCORE, json=SIMPLE_BOARD).status_code == 200
    engines[0].health.enter_graceful_shutdown()
    engines[1].server.stop(0)
    answer = client.post(SCORE, json=SIMPLE_BOARD)
    assert answer.status_code == 503, "a call reached the draining engine"
    assert client.get("/readyz").status_code == 503


# --- TLS ------------------------------------------------------------------------------

ENGINE_NAME = "engine.referee.test"


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A CA, the engine's certificate (for ENGINE_NAME) and the gateway's, as PEM files;
    and a client certificate from another CA."""
    folder = tmp_path_factory.mktemp("pki")
    ca, stranger = trustme.CA(), trustme.CA()
    files: dict[str, Path] = {"ca": folder / "ca.pem"}
    ca.cert_pem.write_to_path(files["ca"])
    for name, authority, host in (("engine", ca, ENGINE_NAME),
                                  ("gateway", ca, "gateway.referee.test"),
                                  ("stranger", stranger, "gateway.referee.test")):
        issued = authority.issue_cert(host)
        files[f"{name}.crt"] = folder / f"{name}.crt"
        files[f"{name}.key"] = folder / f"{name}.key"
        issued.cert_chain_pems[0].write_to_path(files[f"{name}.crt"])
        issued.private_key_pem.write_to_path(files[f"{name}.key"])
    return files


@pytest.fixture(scope="module")
def tls_engine(pki: dict[str, Path]) -> Iterator[str]:
    """An engine serving mutual TLS only to clients with a certificate from pki's CA: its
    ``127.0.0.1:port``."""
    built = create_server("127.0.0.1:0", max_workers=4)
    credentials = grpc.ssl_server_credentials(
        [(pki["engine.key"].read_bytes(), pki["engine.crt"].read_bytes())],
        root_certificates=pki["ca"].read_bytes(), require_client_auth=True)
    port = built.server.add_secure_port("127.0.0.1:0", credentials)
    built.server.start()
    yield f"127.0.0.1:{port}"
    built.server.stop(0)


def tls_settings(pki: dict[str, Path], address: str, client: str | None = "gateway",
                 server_name: str = ENGINE_NAME) -> dict[str, Any]:
    settings = {"ENGINE_ADDRESS": address, "ENGINE_TLS_CA": str(pki["ca"]),
                "ENGINE_TLS_SERVER_NAME": server_name, "ENGINE_TIMEOUT_SECONDS": 2}
    if client:
        settings |= {"ENGINE_TLS_CERT": str(pki[f"{client}.crt"]),
                     "ENGINE_TLS_KEY": str(pki[f"{client}.key"])}
    return settings


def test_the_gateway_dials_the_engine_over_mutual_tls(pki: dict[str, Path],
                                                      tls_engine: str) -> None:
    client = create_app(tls_settings(pki, tls_engine)).test_client()
    assert client.get("/readyz").status_code == 200
    assert client.post(SCORE, json=SIMPLE_BOARD).status_code == 200


@pytest.mark.parametrize("wrong", ["no client certificate", "a stranger's certificate",
                                   "another server name", "plaintext"])
def test_a_tls_engine_is_unreachable_with_the_wrong_settings(
        pki: dict[str, Path], tls_engine: str, wrong: str) -> None:
    settings = {
        "no client certificate": tls_settings(pki, tls_engine, client=None),
        "a stranger's certificate": tls_settings(pki, tls_engine, client="stranger"),
        "another server name": tls_settings(pki, tls_engine, server_name="other.test"),
        "plaintext": {"ENGINE_ADDRESS": tls_engine, "ENGINE_TIMEOUT_SECONDS": 2},
    }[wrong]
    client = create_app(settings).test_client()
    assert client.post(SCORE, json=SIMPLE_BOARD).status_code == 503
    assert client.get("/readyz").status_code == 503


PAIR = "REFEREE_ENGINE_TLS_CERT and REFEREE_ENGINE_TLS_KEY go together"


@pytest.mark.parametrize(("files", "named"), [
    (("ca", "gateway.crt", None), PAIR),
    (("ca", None, "gateway.key"), PAIR),
    (("missing", None, None), "REFEREE_ENGINE_TLS_CA='"),
    (("ca", "gateway.crt", "missing"), "REFEREE_ENGINE_TLS_KEY='"),
])
def test_broken_tls_settings_are_refused_at_startup(
        pki: dict[str, Path], files: tuple[str | None, ...], named: str) -> None:
    ca, cert, key = (str(pki.get(name, pki["ca"].parent / name)) if name else ""
                     for name in files)
    with pytest.raises(engine.SettingsError) as caught:
        create_app({"ENGINE_TLS_CA": ca, "ENGINE_TLS_CERT": cert, "ENGINE_TLS_KEY": key})
    assert named in str(caught.value)


@pytest.mark.parametrize("key", ["ENGINE_TLS_CERT", "ENGINE_TLS_KEY", "ENGINE_TLS_SERVER_NAME"])
def test_tls_settings_without_a_ca_are_refused(key: str) -> None:
    """Plaintext is what an unset CA means: a certificate given without one is a mistake,
    not a request for plaintext."""
    with pytest.raises(engine.SettingsError, match=f"REFEREE_{key} set but REFEREE_ENGINE_TLS_CA"):
        create_app({key: "x"})


# --- the request id -------------------------------------------------------------------


def test_the_request_id_travels_to_the_engine_with_every_attempt() -> None:
    """An engine answering UNAVAILABLE is tried maxAttempts times, each time with the
    request's id."""
    seen: list[dict[str, str]] = []

    def score(request: bytes, context: grpc.ServicerContext) -> bytes:
        seen.append(dict(context.invocation_metadata()))  # type: ignore[arg-type]
        context.abort(grpc.StatusCode.UNAVAILABLE, "a recorder, not an engine")

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    service = dfm_pb2.DESCRIPTOR.services_by_name["DowntownFarmersMarketService"].full_name
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(
        service, {"ScoreBoard": grpc.unary_unary_rpc_method_handler(score)})])
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        app = create_app({"ENGINE_ADDRESS": f"127.0.0.1:{port}"})
        answer = app.test_client().post(SCORE, json=SIMPLE_BOARD,
                                        headers={"X-Request-ID": "table-7.move-42"})
        assert answer.status_code == 503
    finally:
        server.stop(0)
    assert len(seen) == engine.RETRY_POLICY["maxAttempts"], seen
    assert all(call.get("x-request-id") == "table-7.move-42" for call in seen), seen

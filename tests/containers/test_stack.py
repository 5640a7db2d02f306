"""Three engine containers and a gateway container, as ``deploy/kubernetes/base`` runs
them: the same answers as the checkout's own stack, the manifests' probes, the compiled
rules, a read-only root, and failover under a steady load while engines are killed,
paused and cut off the network. The figures are printed; the deployment docs quote them.
"""

from __future__ import annotations

import json
import random
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from deploy import containers
from tabletop_rules.downtown_farmers_market import REVEAL_SIZE, Mode

from ..e2e.conftest import in_flight, scrape, start_stack
from ..fixed_rate import FixedRateLoad, report, seconds_until_calls, wait_until
from ..sample_boards import INGREDIENTS, SIMPLE_BOARD, SIMPLE_BOARD_TOTAL
from .conftest import ENGINE_ALIAS, Container, ContainerStack

pytestmark = [pytest.mark.containers, pytest.mark.xdist_group("containers")]

DFM = "/v1/downtown-farmers-market"
Exchange = tuple[str, Any, Any]
"""A request's path and body, and the answer's JSON."""
CALLS_AGAIN_WITHIN_SECONDS = 40.0
"""Generous: a restarted container may come back on another address, which the gateway
learns when it next resolves the engines' name."""


def readme_examples() -> list[tuple[str, Any]]:
    """The README's curl examples that POST JSON: each one's path and body."""
    readme = (containers.REPO_ROOT / "README.md").read_text()
    return [(path, json.loads(body)) for path, body in re.findall(
        r"curl -s http://127\.0\.0\.1:8080(/\S+).*?-d '([^']*)'", readme, re.S)]


def post(session: requests.Session, url: str, path: str, body: Any) -> Any:
    answer = session.post(url + path, json=body, timeout=10)
    assert answer.status_code == 200, (path, answer.text)
    return answer.json()


def play_a_game(url: str, rng: random.Random) -> list[Exchange]:
    """A whole 3-player standard game through the gateway at ``url``: every move a random
    pick from ``/legal-moves``, validated, then the game replayed and ranked."""
    exchanges: list[Exchange] = []
    box = [rng.choices(INGREDIENTS[:4], k=rng.randint(1, 3)) for _ in range(65)]
    board = {k: v for k, v in SIMPLE_BOARD.items() if k != "grid"}
    setup = {"mode": "standard", "players": [{"name": n, "board": board}
                                             for n in ("Ana", "Ben", "Cy")],
             "face_up": box[:5]}
    pile = box[5:]

    with requests.Session() as session:
        def ask(path: str, body: Any) -> Any:
            answer = post(session, url, path, body)
            exchanges.append((path, body, answer))
            return answer

        state, moves = ask(f"{DFM}/games", setup), []
        while not state["game_over"]:
            if state["expected"] == "reveal":
                move = {"action": "reveal", "tiles": pile[:REVEAL_SIZE[Mode.STANDARD]]}
                del pile[:REVEAL_SIZE[Mode.STANDARD]]
            else:
                move = rng.choice(ask(f"{DFM}/legal-moves", {"state": state})["moves"])
            state = ask(f"{DFM}/moves/validate", {"state": state, "move": move})["state"]
            moves.append(move)
        ask(f"{DFM}/games/replay", {"setup": setup, "moves": moves})
        ask(f"{DFM}/rank", {"players": state["players"]})
    return exchanges


def test_the_readme_and_a_whole_game_answer_as_the_checkouts_stack(
        container_stack: ContainerStack) -> None:
    examples = readme_examples()
    assert examples, "no curl example found in the README"
    checkout = start_stack()
    try:
        with requests.Session() as session:
            expected = [(path, body, post(session, checkout.url, path, body))
                        for path, body in examples]
        expected += play_a_game(checkout.url, random.Random(24))
    finally:
        checkout.stop()
    with requests.Session() as session:
        differing = [path for path, body, answer in expected
                     if post(session, container_stack.url, path, body) != answer]
    assert len(expected) > 60 and not differing, differing[:5]


def test_the_manifests_probes_answer_inside_the_network(
        container_stack: ContainerStack) -> None:
    gateway = container_stack.gateway
    assert gateway is not None
    assert gateway.probe("http://127.0.0.1:8080/healthz")
    assert gateway.probe("http://127.0.0.1:8080/readyz")
    for engine in container_stack.engines:  # from the gateway's container, as the kubelet
        assert gateway.probe("grpc", f"{engine.ip()}:50052")
        assert gateway.probe(f"http://{engine.ip()}:9090/metrics")
    assert not gateway.probe("grpc", f"{container_stack.engines[0].ip()}:50099")


def test_the_engines_run_compiled_and_nothing_is_written_outside_tmp(
        container_stack: ContainerStack) -> None:
    for engine in container_stack.engines:
        assert "the rules' hot modules run compiled" in engine.logs()
    running = [c for c in (*container_stack.engines, container_stack.gateway) if c]
    assert [containers.docker("diff", c.name).stdout for c in running] == [""] * len(running)
    assert {c.exec("id", "-u").strip() for c in running} == {"10001"}


def test_killed_paused_and_cut_off_engines_cost_no_request(
        container_stack: ContainerStack) -> None:
    killed, paused, cut = container_stack.engines
    network = container_stack.network
    load = FixedRateLoad(container_stack.url + f"{DFM}/score", SIMPLE_BOARD, rate=150,
                         seconds=34).start()
    faults: list[tuple[str, float, float, float | None]] = []

    def fault(what: str, breaks: list[str], restores: list[str], engine: Container,
              down_seconds: float) -> None:
        start = load.now()
        containers.docker(*breaks)
        time.sleep(down_seconds)
        containers.docker(*restores)
        end = load.now()
        faults.append((what, start, end, seconds_until_calls(
            lambda: f"http://{engine.ip()}:9090/metrics", CALLS_AGAIN_WITHIN_SECONDS)))

    time.sleep(3)
    fault("one engine killed (docker kill), then started", ["kill", killed.name],
          ["start", killed.name], killed, 3)
    fault("one engine paused 10 s (docker pause)", ["pause", paused.name],
          ["unpause", paused.name], paused, 10)
    fault("one engine cut off 4 s (docker network disconnect)",
          ["network", "disconnect", network, cut.name],
          ["network", "connect", "--alias", ENGINE_ALIAS, network, cut.name], cut, 4)
    whole = load.wait()
    for what, start, end, recovered in faults:
        report("containers", what, load.window(start, end), recovered)
    print(f"containers, the whole {load.seconds:.0f} s: {whole.figures()}")
    assert not whole.failed(), [a.failure() for a in whole.failed()][:20]
    assert [recovered is not None for *_, recovered in faults] == [True] * 3, faults
    container_stack.wait_ready()


@pytest.fixture
def second_gateway(container_stack: ContainerStack) -> Iterator[Container]:
    gateway = container_stack.run(f"{container_stack.network}-gateway-2", "gateway.env",
                                  "gunicorn", "-c", "deploy/gunicorn.conf.py")
    try:
        yield gateway
    finally:
        containers.docker("rm", "-f", gateway.name, check=False)


def test_docker_stop_on_the_gateway_drains_what_it_started(
        container_stack: ContainerStack, second_gateway: Container) -> None:
    """``docker stop`` on a gateway under 100 requests a second: a request it had started
    when SIGTERM came is answered 200 after it, no request gets a 5xx, and it exits 0.

    The started request is held, half its body sent, until the gateway's log says SIGTERM
    came: so it is surely in flight then, however busy the machine. The load's requests
    sent before the stop are not all owed an answer: on a busy machine some still wait in
    the kernel's accept queue, which the closing listener resets. Emptying that queue is
    what the manifests' preStop is for (5 s off the Service's endpoints before SIGTERM);
    ``docker stop`` has none.
    """
    address = (second_gateway.ip(), 8080)
    url = "http://{}:{}".format(*address)
    ContainerStack(container_stack.image, gateway=second_gateway,
                   network=container_stack.network).wait_ready()
    body = json.dumps(SIMPLE_BOARD).encode()
    with socket.create_connection(address, timeout=30) as held:
        held.sendall(f"POST {DFM}/score HTTP/1.1\r\nHost: gateway\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                     f"\r\n".encode() + body[:len(body) // 2])
        assert wait_until(lambda: in_flight(scrape(url)) == 2, 20) is not None, \
            "the held request never started"
        load = FixedRateLoad(url + f"{DFM}/score", SIMPLE_BOARD, rate=100, seconds=6).start()
        time.sleep(2)
        stopping = threading.Thread(target=containers.docker, args=("stop", second_gateway.name))
        stopped_at = load.now()
        stopping.start()
        assert wait_until(lambda: "Handling signal: term" in second_gateway.logs(), 20) is not None
        time.sleep(0.5)  # the master logs it just before it signals its workers
        held.sendall(body[len(body) // 2:])
        answer = b"".join(iter(lambda: held.recv(65536), b""))
        stopping.join(60)
    whole = load.wait()
    started = load.window(0, stopped_at)
    print(f"\ncontainers, docker stop on a gateway under load: before the stop "
          f"{started.figures()}; after it, {len(whole.answers) - len(started.answers)} "
          f"requests found it closed")
    head, _, score = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 "), answer
    assert json.loads(score)["total"] == SIMPLE_BOARD_TOTAL
    assert {a.status for a in whole.answers} <= {200, -1}, whole.statuses()
    state = containers.docker("inspect", "-f", "{{.State.ExitCode}}", second_gateway.name)
    assert state.stdout.strip() == "0"

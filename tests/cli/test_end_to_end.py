"""End to end: the installed ``referee`` script against the real engine and gunicorn
gateway processes, over REST and gRPC, and with ``--local`` (no service): a tournament's
directory of boards gets the same totals every way, REST and ``--local`` the same answers
byte for byte; a misread board its problems by pointer and exit 1; a referee with nothing
listening exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deploy.stack import free_port

from ..e2e.conftest import Service, environment
from ..platform.foxglove_towns import KULY, RANCH
from .files import RULEBOOK, bad_board, tournament, write

pytestmark = pytest.mark.e2e

REFEREE = Path(sys.executable).with_name("referee")
"""The console script the clients distribution installs beside this interpreter."""


def referee(*args: str | Path) -> subprocess.CompletedProcess[str]:
    assert REFEREE.exists(), f"{REFEREE} is not installed: pip install -e ./clients"
    return subprocess.run([str(REFEREE), *map(str, args)], capture_output=True, text=True,
                          timeout=120, env=environment(COLUMNS="400"))


def transports(service: Service) -> dict[str, list[str]]:
    return {"rest": ["--url", service.url], "grpc": ["--grpc", service.engine_address],
            "local": ["--local"]}


def answers(run: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """Each input's answer from the JSON Lines, by file name."""
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert {line["outcome"] for line in lines} == {"answered"}, run.stdout + run.stderr
    return {Path(line["file"]).name: line["answer"] for line in lines}


def test_a_tournament_scores_the_same_every_way(service: Service, tmp_path: Path) -> None:
    expected = tournament(tmp_path / "boards", seed=13, random_boards=12)
    runs = {name: referee("dfm", "score", tmp_path / "boards", "--json", *chosen)
            for name, chosen in transports(service).items()}
    for name, run in runs.items():
        assert run.returncode == 0, (name, run.stderr)
    rest, grpc, local = (answers(runs[name]) for name in ("rest", "grpc", "local"))
    assert list(rest) == sorted(expected)
    assert runs["local"].stdout == runs["rest"].stdout  # the same answers, byte for byte
    assert grpc == rest
    totals = {name: answer["total"] for name, answer in rest.items()}
    assert {name: totals[name] for name in RULEBOOK} == RULEBOOK
    table = referee("dfm", "score", tmp_path / "boards", "--url", service.url)
    assert table.returncode == 0
    for name, total in totals.items():
        row = next(line for line in table.stdout.splitlines()
                   if line.startswith(str(tmp_path / "boards" / name)))
        assert f"│ {total} points" in row


def test_towns_and_plans_agree_every_way(service: Service, tmp_path: Path) -> None:
    write(tmp_path / "kuly.json", KULY["town"])
    write(tmp_path / "ranch.json", RANCH["town"])
    for command in ("score", "plan"):
        found = {name: answers(referee("ff", command, tmp_path, "--json", *chosen))
                 for name, chosen in transports(service).items()}
        assert found["rest"] == found["grpc"] == found["local"], command
        assert found["rest"]["kuly.json"]["total"] == (0 if command == "score" else 17)


def test_a_misread_board_prints_its_problems_by_pointer_every_way(
        service: Service, tmp_path: Path) -> None:
    tournament(tmp_path, random_boards=1)
    board, pointers = bad_board()
    write(tmp_path / "misread.json", board)
    for name, chosen in transports(service).items():
        run = referee("dfm", "score", tmp_path, *chosen)
        assert run.returncode == 1, (name, run.stdout, run.stderr)
        row = next(line for line in run.stdout.splitlines()
                   if line.startswith(str(tmp_path / "misread.json")))
        assert "refused" in row
        for pointer in pointers:
            assert f"{pointer}: " in run.stdout, name
        alone = referee("dfm", "score", tmp_path / "misread.json", *chosen)
        assert alone.returncode == 1
        assert {line.split()[0] for line in alone.stderr.splitlines() if "│" in line} \
            == pointers, name


def test_nothing_listening_exits_2(tmp_path: Path) -> None:
    tournament(tmp_path, random_boards=0)
    port = free_port()
    for chosen in (["--url", f"http://127.0.0.1:{port}"], ["--grpc", f"127.0.0.1:{port}"]):
        run = referee("dfm", "score", tmp_path, *chosen)
        assert run.returncode == 2, run.stderr
        assert "did not answer" in run.stderr

"""End to end: the installed ``referee`` script against the real engine and gunicorn
gateway processes, over REST and gRPC, and with ``--local`` (no service): a tournament's
directory of boards gets the same totals every way, REST and ``--local`` the same answers
byte for byte; a misread board its problems by pointer and exit 1; a referee with nothing
listening exit 2."""

from __future__ import annotations

import copy
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deploy.stack import free_port

from ..e2e.conftest import Service, environment
from ..platform.foxglove_towns import KULY, RANCH
from .files import RULEBOOK, bad_board, rulebook_board, tournament, write

pytestmark = pytest.mark.e2e

REFEREE = Path(sys.executable).with_name("referee")
"""The console script the clients distribution installs beside this interpreter."""


ROOT = Path(__file__).resolve().parents[2]


def referee(*args: str | Path, columns: int = 400,
            cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    assert REFEREE.exists(), f"{REFEREE} is not installed: pip install -e ./clients"
    return subprocess.run([str(REFEREE), *map(str, args)], capture_output=True, text=True,
                          timeout=120, env=environment(COLUMNS=str(columns)), cwd=cwd)


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


def test_a_folder_of_boards_ranks_as_one_table(service: Service, tmp_path: Path) -> None:
    """One player per file, named by the file or its ``name`` field; a problem is named
    by its file and the pointer in it; ``score`` places the boards in its summary."""
    board = rulebook_board("rulebook_standard_example.json")
    weaker = copy.deepcopy(board)
    weaker["grid"][3][3] = ["egg"]
    write(tmp_path / "ana.json", board)
    write(tmp_path / "ben.json", weaker)
    write(tmp_path / "third.json", dict(weaker, name="Cleo"))
    for name, chosen in transports(service).items():
        run = referee("dfm", "rank", tmp_path, "--json", *chosen)
        assert run.returncode == 0, (name, run.stderr)
        (answer,) = answers(run).values()
        assert [(s["name"], s["place"]) for s in answer["standings"]] == [
            ("ana", 1), ("ben", 2), ("Cleo", 2)], name
    long_name = "a_player_whose_file_name_is_long_enough_to_be_wrapped.json"
    write(tmp_path / long_name, board)
    write(tmp_path / "third.json", weaker)  # a board as the score endpoint takes it
    summary = referee("dfm", "score", ".", "--url", service.url, columns=100, cwd=tmp_path)
    assert summary.returncode == 0, summary.stderr
    assert "winners a_player_whose_file_name_is_long_enough_to_be_wrapped, ana" \
        in " ".join(summary.stdout.split())
    rows = {line.split("│")[1].strip(): line.split("│")[0].strip()
            for line in summary.stdout.splitlines() if line.count("│") >= 3}
    assert {Path(file).name: place for file, place in rows.items() if file} == {
        long_name: "1", "ana.json": "1", "ben.json": "3", "third.json": "3"}
    misread = copy.deepcopy(board)
    misread["grid"][1][2] = ["corn", "egg", "milk", "bread"]
    write(tmp_path / "ben.json", misread)
    run = referee("dfm", "rank", tmp_path, "--url", service.url, "--json")
    assert run.returncode == 1
    (line,) = map(json.loads, run.stdout.splitlines())
    assert [e["pointer"] for e in line["problem"]["errors"]] == [f"{tmp_path}/ben.json#/grid/1/2"]


def test_the_other_game_s_board_or_town_says_which_command_fits(
        service: Service, tmp_path: Path) -> None:
    town = write(tmp_path / "town.json", KULY["town"])
    board = write(tmp_path / "board.json", rulebook_board("rulebook_standard_example.json"))
    for command, path, hint in (("dfm", town, "try referee ff score"),
                                ("ff", board, "try referee dfm score")):
        run = referee(command, "score", path, "--url", service.url)
        assert run.returncode == 1
        assert hint in run.stderr
        (line,) = map(json.loads, referee(command, "score", path, "--url", service.url,
                                          "--json").stdout.splitlines())
        assert line["problem"]["hint"].endswith(hint)
    run = referee("dfm", "score", board, "--url", service.url)
    assert "try referee" not in run.stderr + run.stdout


def readme_commands(service: Service) -> list[list[str]]:
    """The README's and the command-line page's ``referee`` command lines, asking this service."""
    pages = "".join((ROOT / page).read_text("utf-8") for page in ("README.md", "docs/command-line.md"))
    lines = re.findall(r"^(?:\$ )?\.venv/bin/referee (.+?)(?:\s+#.*)?$", pages, re.MULTILINE)
    assert lines
    return [[argument.replace("127.0.0.1:50051", service.engine_address)
             .removeprefix("examples/") for argument in shlex.split(line)]
            + ([] if "--grpc" in line or "--local" in line else ["--url", service.url])
            for line in lines]


def test_the_readme_s_examples_run_on_the_shipped_inputs(service: Service) -> None:
    """``examples/`` holds the README's ``board.json``, ``boards/`` and ``town.json``;
    ``--lang fr`` words the explanations in French."""
    for command in readme_commands(service):
        run = referee(*command, cwd=ROOT / "examples")
        assert run.returncode == 0, (command, run.stderr)
    english, french = (
        json.loads(referee("dfm", "score", "board.json", "--json", *chosen,
                           cwd=ROOT / "examples").stdout)["answer"]["rows"][0]["explanation"]
        for chosen in (["--url", service.url], ["--url", service.url, "--lang", "fr"]))
    assert english.startswith("One ingredient of your choice")
    assert french.startswith("Un ingrédient au choix")
    refused = referee("dfm", "score", "board.json", "--grpc", service.engine_address,
                      "--lang", "fr", cwd=ROOT / "examples")
    assert refused.returncode == 64


def test_a_board_s_lines_are_counted_from_1(service: Service, tmp_path: Path) -> None:
    """Row 1 is the top row and column 4 the rightmost, as the grid is read at the table."""
    board = write(tmp_path / "board.json", rulebook_board("rulebook_standard_example.json"))
    lines = [line.split("│")[0].strip()
             for line in referee("dfm", "score", board, "--url", service.url).stdout.splitlines()
             if line.startswith(("row ", "column "))]
    assert lines == [f"{kind} {n}" for kind in ("row", "column") for n in range(1, 5)]

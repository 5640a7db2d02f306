"""The command line's parsing, output and exit codes, driven by click's CliRunner against
the referee in this process (``--local``): each command's table, the summary of many
inputs, JSON Lines, the problems of a refused body by pointer, and 0/1/2/64."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_referee_clients.cli import EXIT_USAGE, main
from tabletop_referee_clients.cli import inputs as cli_inputs
from tabletop_referee_clients.cli.local import local_client

from ..downtown_farmers_market.random_boards import boards
from ..platform.foxglove_towns import KULY, RANCH
from .files import RULEBOOK, bad_board, dfm_game, ff_game, rulebook_board, tournament, write

Json = Any
WIDE = {"COLUMNS": "400"}
"""A terminal wide enough that no explanation is wrapped in a table cell."""


def referee(*args: str | Path, stdin: str | None = None) -> Result:
    """``referee ARGS`` in this process, asking the rules in this process."""
    return CliRunner(env=WIDE).invoke(main, [*map(str, args), "--local"], input=stdin)


def json_lines(result: Result) -> list[Json]:
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture(autouse=True)
def _no_referee_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests choose their referee: none comes from the environment they run in."""
    monkeypatch.delenv("REFEREE_URL", raising=False)


@pytest.fixture(scope="module")
def game() -> Json:
    with local_client(10) as client:
        return dfm_game(client.downtown_farmers_market)


def test_a_board_reads_line_by_line_with_each_explanation(tmp_path: Path) -> None:
    path = write(tmp_path / "board.json", rulebook_board("rulebook_standard_example.json"))
    (answer,) = json_lines(referee("dfm", "score", path, "--json"))
    result = referee("dfm", "score", path)
    assert result.exit_code == 0, result.output
    assert "43 points, 7 challenges met, best 11" in result.stdout
    for kind in ("rows", "columns"):
        for line in answer["answer"][kind]:
            row = next(r for r in result.stdout.splitlines()
                       if r.startswith(f"{kind[:-1]} {line['index'] + 1} "))
            assert line["explanation"] in row and line["rule"] in row
            assert f" {line['points']} " in row


def test_json_lines_one_per_input_with_the_answer(tmp_path: Path) -> None:
    expected = tournament(tmp_path / "boards")
    result = referee("dfm", "score", tmp_path / "boards", "--json")
    assert result.exit_code == 0, result.output
    lines = json_lines(result)
    assert [Path(line["file"]).name for line in lines] == sorted(expected)
    assert {line["outcome"] for line in lines} == {"answered"}
    for line in lines:
        if expected[Path(line["file"]).name] is not None:
            assert line["answer"]["total"] == expected[Path(line["file"]).name]


def test_a_directory_is_summed_up_in_one_table(tmp_path: Path) -> None:
    expected = tournament(tmp_path, random_boards=2)
    board, pointers = bad_board()
    write(tmp_path / "misread.json", board)
    (tmp_path / "notes.txt").write_text("not an input")
    result = referee("dfm", "score", tmp_path)
    assert result.exit_code == 1
    rows = {line.split()[0]: line for line in result.stdout.splitlines()
            if line.startswith(str(tmp_path))}
    assert [Path(name).name for name in rows] == sorted([*expected, "misread.json"])
    for name, total in RULEBOOK.items():
        assert f" {total} points" in rows[str(tmp_path / name)]
    assert "refused: Invalid request (422)" in rows[str(tmp_path / "misread.json")]
    for pointer in pointers:
        assert f"{pointer}: " in result.stdout
    assert "5 inputs: 4 answered, 0 illegal, 1 refused" in result.stdout
    assert "notes.txt" not in result.stdout


def test_details_print_each_table_before_the_summary(tmp_path: Path) -> None:
    tournament(tmp_path, random_boards=0)
    result = referee("dfm", "score", tmp_path, "--details")
    assert result.exit_code == 0
    assert result.stdout.count("explanation") == 2 and "2 inputs: 2 answered" in result.stdout


def test_a_refused_board_prints_each_problem_by_pointer(tmp_path: Path) -> None:
    board, pointers = bad_board()
    result = referee("dfm", "score", write(tmp_path / "misread.json", board))
    assert result.exit_code == 1 and result.stdout == ""
    assert "refused: Invalid request (422): 2 problems in the request body" in result.stderr
    shown = {line.split()[0] for line in result.stderr.splitlines() if "│" in line}
    assert shown == pointers
    (line,) = json_lines(referee("dfm", "score", tmp_path / "misread.json", "--json"))
    assert line["outcome"] == "invalid" and line["problem"]["status"] == 422
    assert {error["pointer"] for error in line["problem"]["errors"]} == pointers
    assert all(error["code"] and isinstance(error["params"], dict)
               for error in line["problem"]["errors"])


def test_standard_input(tmp_path: Path) -> None:
    board = json.dumps(rulebook_board("rulebook_young_shopper_example.json"))
    result = referee("dfm", "score", "-", stdin=board)
    assert result.exit_code == 0 and "28 points" in result.stdout
    assert referee("dfm", "score", "-", "-", stdin=board).exit_code == EXIT_USAGE


@pytest.mark.parametrize("content, detail", [
    (b'{"mode": "standard",', "not JSON: Expecting property name enclosed in double quotes "
                             "at line 1, column 21"),
    (b'{"points": NaN}', "not JSON: NaN is not a JSON number"),
    (b'["\\ud800"]', "a string holds a lone UTF-16 surrogate, which is not text"),
    (b'\xff{}', "not UTF-8 text (byte 0)"),
    (b"[" * 100_000, "nested too deeply to read"),
])
def test_what_is_not_a_json_body_is_refused_before_any_call(tmp_path: Path, content: bytes,
                                                            detail: str) -> None:
    (tmp_path / "input.json").write_bytes(content)
    (line,) = json_lines(referee("dfm", "score", tmp_path / "input.json", "--json"))
    assert line == {"file": str(tmp_path / "input.json"), "outcome": "invalid", "problem": {
        "status": 400, "title": "Malformed request body", "detail": detail,
        "errors": [{"pointer": "", "detail": detail}]}}


def test_a_body_over_the_limit_is_refused_unread(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_inputs, "MAX_INPUT_BYTES", 1024 * 1024)
    path = write(tmp_path / "large.json", {"mode": "standard", "padding": "x" * 1024 * 1024})
    (line,) = json_lines(referee("dfm", "score", path, "--json"))
    assert (line["outcome"], line["problem"]["status"]) == ("invalid", 413)
    assert line["problem"]["detail"] == "larger than 1 MiB, the most a request may be"


def test_a_field_s_name_is_escaped_in_its_pointer(tmp_path: Path) -> None:
    """RFC 6901: a name's ``~`` is written ``~0``, and then its ``/`` ``~1``."""
    body = {"players": [], "player/s~1": []}
    (line,) = json_lines(referee("dfm", "rank", write(tmp_path / "rank.json", body), "--json"))
    assert [e["pointer"] for e in line["problem"]["errors"]] == ["/player~1s~01"]


def test_a_request_of_several_fields_is_checked_for_them(tmp_path: Path) -> None:
    board = rulebook_board("rulebook_standard_example.json")
    body = {"player": [{"name": "Ana", "board": board}]}
    (line,) = json_lines(referee("dfm", "rank", write(tmp_path / "rank.json", body), "--json"))
    assert [(e["pointer"], e["detail"]) for e in line["problem"]["errors"]] == [
        ("/players", "this field is required"),
        ("/player", "not a field here; check the spelling against the API reference")]
    (line,) = json_lines(referee("dfm", "rank", write(tmp_path / "list.json", [board]),
                                 "--json"))
    assert line["problem"]["errors"] == [{"pointer": "", "detail": "expected a JSON object"}]


def test_rank_shows_the_standings_with_the_tie_breaks(tmp_path: Path) -> None:
    board = rulebook_board("rulebook_standard_example.json")
    empty = dict(board, grid=[[None] * 4] * 4)
    body = {"players": [{"name": "[bold]Ana[/bold]", "board": board},
                        {"name": "Ben", "board": board}, {"name": "Cy", "board": empty}]}
    result = referee("dfm", "rank", write(tmp_path / "rank.json", body))
    assert result.exit_code == 0
    assert "winners [bold]Ana[/bold], Ben (43 points)" in result.stdout  # no markup read
    header = next(line for line in result.stdout.splitlines() if "place" in line)
    assert ["place", "name", "total", "challenges met", "best challenge points"] == [
        cell.strip() for cell in header.split("┃")]
    assert [line.split("│")[1].strip() for line in result.stdout.splitlines()
            if "│" in line] == ["[bold]Ana[/bold]", "Ben", "Cy"]


def test_a_replayed_game_ends_with_its_standings(tmp_path: Path, game: Json) -> None:
    result = referee("dfm", "replay", write(tmp_path / "game.json", game))
    assert result.exit_code == 0, result.output
    assert f"all {len(game['moves'])} entries legal; game over: winner" in result.stdout
    partial = write(tmp_path / "partial.json", {**game, "moves": game["moves"][:10]})
    result = referee("dfm", "replay", partial)
    assert result.exit_code == 0 and "all 10 entries legal; the game goes on in round" \
        in result.stdout


def test_an_illegal_move_exits_1_with_its_violations(tmp_path: Path, game: Json) -> None:
    reveal = next(i for i, move in enumerate(game["moves"]) if move["action"] == "reveal")
    skipped = {**game, "moves": game["moves"][:reveal] + game["moves"][reveal + 1:]}
    result = referee("dfm", "replay", write(tmp_path / "skipped.json", skipped))
    assert result.exit_code == 1
    assert f"illegal: entry {reveal} of the log breaks the rules" in result.stdout
    assert any(line.startswith(f"/moves/{reveal} ") and "REVEAL_REQUIRED" in line
               for line in result.stdout.splitlines())
    (line,) = json_lines(referee("dfm", "replay", tmp_path / "skipped.json", "--json"))
    assert line["outcome"] == "illegal" and line["answer"]["illegal_index"] == reveal


def test_a_foxglove_farm_town_and_its_plan(tmp_path: Path) -> None:
    town = write(tmp_path / "kuly.json", KULY["town"])
    result = referee("ff", "score", town)
    assert result.exit_code == 0
    assert "0 points = score track 0 + end game 0; 8 goods left, 9 tiles" in result.stdout
    assert "Ranch at row 2, col 3" in result.stdout and "FF-R7" in result.stdout
    result = referee("ff", "plan", town)
    assert result.exit_code == 0
    assert ("17 points (proven best): score track 0 + processing 14 + end game 3; 4 goods "
            "left") in result.stdout
    steps = [line.split("│") for line in result.stdout.splitlines() if "│" in line]
    assert [step[1].strip() for step in steps] == ["move", "process", "move"]
    assert steps[0][2].strip() == "2 coal from (1, 1) to (1, 3) along 2 tiles"


def test_a_transport_legal_or_not(tmp_path: Path) -> None:
    town, step = KULY["town"], KULY["transportation"][0]
    legal = write(tmp_path / "legal.json", {"town": town, "move": step["move"]})
    result = referee("ff", "validate-transport", legal)
    assert result.exit_code == 0
    assert "legal, along " + " → ".join(f"({r}, {c})" for r, c in step["path"]) in result.stdout
    too_many = {**step["move"], "count": 9}
    illegal = write(tmp_path / "illegal.json", {"town": town, "move": too_many})
    result = referee("ff", "validate-transport", illegal)
    assert result.exit_code == 1 and "illegal" in result.stdout
    assert any(line.startswith("/move/count ") and "NOT_ENOUGH_GOODS" in line
               for line in result.stdout.splitlines())


def test_foxglove_farm_rank_and_replay(tmp_path: Path) -> None:
    players = {"players": [{"name": "Kuly", "town": KULY["town"]},
                           {"name": "Ann", "town": RANCH["town"]}]}
    result = referee("ff", "rank", write(tmp_path / "rank.json", players))
    assert result.exit_code == 0 and "goods remaining" in result.stdout
    result = referee("ff", "replay", write(tmp_path / "solo.json", ff_game()))
    assert result.exit_code == 0
    assert "game over: winner Player 1" in result.stdout
    assert "solo setup 3 (Food Festival): thresholds reached" in result.stdout


@pytest.mark.parametrize("args", [
    ["dfm", "score"],  # no input
    ["dfm", "score", "missing.json"],
    ["dfm", "scor", "board.json"],
    ["dfm", "score", "board.json", "--url", "ftp://referee"],
    ["dfm", "score", "board.json", "--timeout", "0"],
    ["dfm", "score", "board.json", "--grpc", "127.0.0.1:9", "--local"],
    ["dfm", "score", "board.json", "--url", "http://127.0.0.1:9", "--grpc", "127.0.0.1:9"],
    ["dfm", "score", "empty"],  # a directory with no .json file
    [],
])
def test_a_wrong_command_line_exits_64(tmp_path: Path, args: list[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Not 2, which click would give and which a script would retry."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "board.json", rulebook_board("rulebook_standard_example.json"))
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, args)
    assert result.exit_code == EXIT_USAGE, result.output


def test_too_many_inputs_is_a_usage_error(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_inputs, "MAX_INPUTS", 2)
    tournament(tmp_path, random_boards=1)
    result = referee("dfm", "score", tmp_path)
    assert result.exit_code == EXIT_USAGE and "at most 2 are read" in result.stderr


@pytest.fixture
def three_boards(tmp_path: Path) -> Path:
    tournament(tmp_path, random_boards=1)
    return tmp_path


@pytest.mark.parametrize("transport", [["--url", "http://127.0.0.1:9"],
                                       ["--grpc", "127.0.0.1:9"]])
def test_nothing_listening_exits_2_at_the_first_input(three_boards: Path,
                                                      transport: list[str]) -> None:
    result = CliRunner().invoke(main, ["dfm", "score", str(three_boards), "--json",
                                       *transport])
    assert result.exit_code == 2
    (line,) = json_lines(result)
    assert line["outcome"] == "unavailable" and "did not answer" in result.stderr


def test_referee_url_comes_from_the_environment(three_boards: Path) -> None:
    result = CliRunner(env={"REFEREE_URL": "http://127.0.0.1:9", **WIDE}).invoke(
        main, ["dfm", "score", str(three_boards)])
    assert result.exit_code == 2 and "the gateway at http://127.0.0.1:9" in result.stderr
    assert "stopped, as no referee answered: 2 not asked" in result.stdout
    assert "did not answer: Unreachable: Connection refused" in result.stderr
    result = CliRunner(env={"REFEREE_URL": "http://127.0.0.1:9", **WIDE}).invoke(
        main, ["dfm", "score", str(three_boards), "--local"])
    assert result.exit_code == 0  # a flag given chooses over the environment


WITHOUT_THE_SERVICE = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"api_gateway", "engine_service", "tabletop_rules", "flask"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Blocker())
from tabletop_referee_clients.cli import main
main()
"""


def test_local_without_the_service_says_so_and_exits_2(three_boards: Path) -> None:
    result = subprocess.run([sys.executable, "-c", WITHOUT_THE_SERVICE, "dfm", "score",
                             str(three_boards), "--local"], capture_output=True, text=True,
                            env={**os.environ, **WIDE})
    assert result.returncode == 2, result.stderr
    assert "--local runs the referee in this process and needs the service's packages" \
        in result.stderr and "--url or --grpc" in result.stderr
    assert "Traceback" not in result.stderr


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bodies=st.lists(boards() | st.sampled_from([bad_board()[0], [], {"grid": 5},
                                                   {"mode": "young shopper"}]),
                       min_size=2, max_size=6))
def test_each_input_has_one_line_and_the_worst_outcome_is_the_exit_code(
        tmp_path_factory: pytest.TempPathFactory, bodies: list[Json]) -> None:
    """Whatever a tournament holds: one JSON line per file in name order, the same
    totals and refusals in the summary table, and 1 exactly when some input is refused."""
    directory = tmp_path_factory.mktemp("boards")
    for number, body in enumerate(bodies):
        write(directory / f"{number:02}.json", body)
    as_json = referee("dfm", "score", directory, "--json")
    lines = json_lines(as_json)
    assert [line["file"] for line in lines] == [str(directory / f"{n:02}.json")
                                                for n in range(len(bodies))]
    refused = any(line["outcome"] == "invalid" for line in lines)
    assert as_json.exit_code == (1 if refused else 0)
    table = referee("dfm", "score", directory)
    assert table.exit_code == as_json.exit_code
    for line in lines:
        row = next(r for r in table.stdout.splitlines() if f"{line['file']} │" in r)
        if line["outcome"] == "answered":
            assert f"│ {line['answer']['total']} points" in row
        else:
            assert "refused" in row

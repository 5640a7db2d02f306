"""``referee``: the tabletop referee from the command line, for the table, the club
organiser scoring a tournament's boards, and scripts.

Every command sends request bodies (the public contract's JSON, exactly as the REST
endpoints take them) to one endpoint, and prints the answers: a table per input with
each line's explanation, a summary table for many inputs, or JSON Lines for machines.
The commands are a table (:data:`COMMANDS`): each names a client method, how a body
becomes its arguments, and how its answer reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import click
from click.core import ParameterSource
from rich.console import Console, Group, RenderableType
from rich.text import Text

from . import show
from .asking import Call, Outcome, Result, connect
from .inputs import sources
from .local import LocalUnavailableError

DEFAULT_URL = "http://127.0.0.1:8080"
EXIT_UNAVAILABLE = Outcome.UNAVAILABLE.exit_code
EXIT_USAGE = 64
"""A wrong command line (BSD's ``EX_USAGE``): click's own 2 would read as "unavailable,
try again", which retrying never fixes."""

Json = Any


@dataclass(frozen=True)
class Command:
    """One endpoint on the command line: its call, its answer for a person (a table and
    a one-line result for the summary), and its help."""

    call: Call
    details: Callable[[Json, Json], RenderableType]
    result: Callable[[Json, Json], str]
    help: str


DFM, FF = "downtown_farmers_market", "foxglove_farm"
COMMANDS: dict[str, dict[str, Command]] = {
    "dfm": {
        "score": Command(
            Call(DFM, "score_board", "board"), show.board_score, show.board_result,
            "Score boards, line by line.\n\nEach input is a board, the body of POST "
            "/v1/downtown-farmers-market/score."),
        "rank": Command(
            Call(DFM, "rank_players", ("players",)), show.ranking, show.ranking_result,
            'Rank players with the tie-breaks.\n\nEach input is {"players": [{"name", '
            '"board"}, ...]}, 1 to 4 players, the body of POST '
            "/v1/downtown-farmers-market/rank."),
        "replay": Command(
            Call(DFM, "replay_game", ("setup", "moves")), show.replay, show.replay_result,
            "Replay a game's log to its end or first illegal move.\n\nEach input is "
            '{"setup", "moves"}, the body of POST /v1/downtown-farmers-market/games/replay.'),
    },
    "ff": {
        "score": Command(
            Call(FF, "score_town", "town"), show.town_score, show.town_result,
            "Score towns, with each end-game effect.\n\nEach input is a town, the body of "
            "POST /v1/foxglove-farm/score."),
        "rank": Command(
            Call(FF, "rank_towns", ("players",)), show.ranking, show.ranking_result,
            'Rank players with the tie-breaks.\n\nEach input is {"players": [{"name", '
            '"town"}, ...]}, 1 to 4 players, the body of POST /v1/foxglove-farm/rank.'),
        "plan": Command(
            Call(FF, "plan_final_round", "town"), show.plan, show.plan_result,
            "Plan the best final round, step by step.\n\nEach input is a town as its last "
            "transportation begins, the body of POST /v1/foxglove-farm/final-round/plan."),
        "validate-transport": Command(
            Call(FF, "validate_transport", ("town", "move")), show.transport,
            show.transport_result,
            'Rule on moving goods in a town.\n\nEach input is {"town": TOWN, "move": '
            '{"good", "count", "from": {"row", "col"}, "to": {"row", "col"}}}, the body of '
            "POST /v1/foxglove-farm/transport/validate; an illegal move exits with 1."),
        "replay": Command(
            Call(FF, "replay_game", ("setup", "actions")), show.replay, show.replay_result,
            "Replay a game's log to its end or first illegal action.\n\nEach input is "
            '{"setup", "actions"}, the body of POST /v1/foxglove-farm/games/replay.'),
    },
}

GAMES = {"dfm": "Downtown Farmers Market: score boards, rank players, replay games.",
         "ff": "Foxglove Farm: score and rank towns, plan the final round, rule on "
               "transports, replay games."}


@contextmanager
def _usage_exit() -> Iterator[None]:
    try:
        yield
    except click.UsageError as error:
        error.show()
        raise click.exceptions.Exit(EXIT_USAGE) from None


class _Referee(click.Group):
    """The root group: every usage error, its own or a command's, exits with
    :data:`EXIT_USAGE`."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _usage_exit():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _usage_exit():
            return super().invoke(ctx)


@click.group(cls=_Referee, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tabletop-referee-clients")
def main() -> None:
    """Ask the tabletop referee to score, rank, replay and plan, from JSON files.

    Each input is the body of one API request, the public contract's JSON: a file, a
    directory (its *.json files, by name) or - for standard input. Many inputs are
    answered one by one and summed up in a table.

    The referee asked is the REST gateway at --url (default http://127.0.0.1:8080, or
    $REFEREE_URL), the gRPC engine at --grpc ADDRESS, or, with --local, the rules in this
    process with no service running (this needs the service's packages installed).

    \b
    Exit codes:
      0   every input answered
      1   an input refused (its problems printed by JSON Pointer) or a move illegal
      2   no referee could answer (nothing listening, or busy): try again later
      64  the command line is wrong
    """


def _check_url(ctx: click.Context, param: click.Parameter, url: str) -> str:
    """A URL requests cannot use is the command line's fault, not an unreachable referee."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise click.BadParameter(f"{url!r} is not an http:// or https:// URL")
    return url


def _options(function: Callable[..., None]) -> Callable[..., None]:
    """What every command takes: its inputs, the referee to ask, the output wanted."""
    decorators = [
        click.argument("inputs", nargs=-1, required=True, metavar="INPUT...",
                       type=click.Path(exists=True, allow_dash=True)),
        click.option("--url", envvar="REFEREE_URL", metavar="URL", default=DEFAULT_URL,
                     show_default=True, callback=_check_url,
                     help="Ask the REST gateway at URL ($REFEREE_URL)."),
        click.option("--grpc", "grpc_address", metavar="ADDRESS",
                     help="Ask the gRPC engine at ADDRESS (host:port) instead."),
        click.option("--local", is_flag=True,
                     help="Ask the rules in this process: no service needed."),
        click.option("--timeout", type=click.FloatRange(0, 600, min_open=True), default=10.0,
                     metavar="SECONDS", show_default=True,
                     help="Seconds to wait for each answer."),
        click.option("--json", "as_json", is_flag=True,
                     help="Print one JSON object per input (JSON Lines): its file, outcome, "
                          "and the answer or the problem."),
        click.option("--details", is_flag=True,
                     help="With many inputs, print each one's table before the summary."),
    ]
    for decorator in reversed(decorators):
        function = decorator(function)
    return function


def _command(name: str, command: Command) -> click.Command:
    @_options
    def ask(**options: Any) -> None:
        _run(command, **options)

    return click.command(name, help=command.help)(ask)


def _game(name: str) -> click.Group:
    return click.Group(name, help=GAMES[name], commands=[
        _command(command, spec) for command, spec in COMMANDS[name].items()])


for _name in COMMANDS:
    main.add_command(_game(_name))


def _run(command: Command, inputs: tuple[str, ...], url: str, grpc_address: str | None,
         local: bool, timeout: float, as_json: bool, details: bool) -> None:
    """Ask about each input in turn, print as asked, and exit with the worst outcome's
    code; the first input no referee answered ends the run (the next would not be)."""
    ctx = click.get_current_context()
    chosen = [ctx.get_parameter_source("url") is ParameterSource.COMMANDLINE,
              grpc_address is not None, local]
    if sum(chosen) > 1:
        raise click.UsageError("choose one of --url, --grpc and --local")
    found = sources(inputs)
    out = Console(markup=False, emoji=False, highlight=False)
    err = Console(stderr=True, markup=False, emoji=False, highlight=False)
    results: list[Result] = []
    try:
        with connect(url, grpc_address, local, timeout) as referee:
            for source in found:
                result = referee.ask(command.call, source)
                results.append(result)
                if as_json:
                    click.echo(json.dumps(_json_line(result), ensure_ascii=False))
                elif len(found) == 1 or details:
                    _print(command, result, out, err)
                if result.outcome is Outcome.UNAVAILABLE:
                    assert result.failure is not None
                    err.print(f"referee: {referee.name} did not answer: "
                              f"{result.failure.title}: {result.failure.detail}")
                    break
    except LocalUnavailableError as error:
        err.print(f"referee: {error}")
        ctx.exit(EXIT_UNAVAILABLE)
    if len(found) > 1 and not as_json:
        out.print(show.summary(results, len(found), command.result))
    ctx.exit(max(result.outcome.exit_code for result in results))


def _print(command: Command, result: Result, out: Console, err: Console) -> None:
    """One input's answer for a person (on standard output), or its refusal (on standard
    error) with each problem by pointer."""
    title = Text(result.source.name, style="bold underline")
    if result.outcome in (Outcome.ANSWERED, Outcome.ILLEGAL):
        out.print(Group(title, command.details(result.body, result.answer)))
    elif result.outcome is Outcome.INVALID:
        assert result.failure is not None
        err.print(Group(title, Text(f"refused: {result.failure.title} "
                                    f"({result.failure.status}): {result.failure.detail}"),
                        show.problems_table(result.problems)))


def _json_line(result: Result) -> Json:
    """An input's outcome as JSON: ``file``, ``outcome`` (answered, illegal, invalid,
    unavailable), the ``answer`` as the referee gave it, or the ``problem`` with its
    ``errors`` by pointer."""
    line: dict[str, Json] = {"file": result.source.name, "outcome": result.outcome.label}
    if result.answer is not None:
        line["answer"] = result.answer
    elif result.failure is not None:
        line["problem"] = {"status": result.failure.status, "title": result.failure.title,
                           "detail": result.failure.detail,
                           "errors": [{"pointer": pointer, "detail": detail}
                                      for pointer, detail in result.problems]}
    return line


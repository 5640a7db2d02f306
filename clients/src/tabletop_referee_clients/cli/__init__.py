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
from .asking import Call, Outcome, Referee, Result, connect
from .inputs import Source, Table, player_files, sources
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
    seat: str | None = None
    """For a ranking: the field a player's item fills, so that player files (a folder of
    boards) rank as one table."""
    places_by: str | None = None
    """For a score: the ranking command placing many answered inputs in the summary."""


@dataclass(frozen=True)
class Item:
    """What a game's score takes: its name, and the field that tells one apart."""

    name: str
    marker: str


ITEMS = {"dfm": Item("Downtown Farmers Market board", "grid"),
         "ff": Item("Foxglove Farm town", "tiles")}


DFM, FF = "downtown_farmers_market", "foxglove_farm"
COMMANDS: dict[str, dict[str, Command]] = {
    "dfm": {
        "score": Command(
            Call(DFM, "score_board", "board"), show.board_score, show.board_result,
            "Score boards, line by line.\n\nEach input is a board, the body of POST "
            "/v1/downtown-farmers-market/score; many boards (1 to 4 of one mode) are also "
            "placed in the summary.", places_by="rank"),
        "rank": Command(
            Call(DFM, "rank_players", ("players",)), show.ranking, show.ranking_result,
            'Rank players with the tie-breaks.\n\nEach input is {"players": [{"name", '
            '"board"}, ...]}, 1 to 4 players, the body of POST '
            "/v1/downtown-farmers-market/rank; or the inputs are boards, one player's "
            'each (a folder of 1 to 4), named by the file or a "name" field.', seat="board"),
        "replay": Command(
            Call(DFM, "replay_game", ("setup", "moves")), show.replay, show.replay_result,
            "Replay a game's log to its end or first illegal move.\n\nEach input is "
            '{"setup", "moves"}, the body of POST /v1/downtown-farmers-market/games/replay.'),
    },
    "ff": {
        "score": Command(
            Call(FF, "score_town", "town"), show.town_score, show.town_result,
            "Score towns, with each end-game effect.\n\nEach input is a town, the body of "
            "POST /v1/foxglove-farm/score; many towns (1 to 4) are also placed in the "
            "summary.", places_by="rank"),
        "rank": Command(
            Call(FF, "rank_towns", ("players",)), show.ranking, show.ranking_result,
            'Rank players with the tie-breaks.\n\nEach input is {"players": [{"name", '
            '"town"}, ...]}, 1 to 4 players, the body of POST /v1/foxglove-farm/rank; or '
            "the inputs are towns, one player's each (a folder of 1 to 4), named by the "
            'file or a "name" field.', seat="town"),
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
        click.option("--api-key", envvar="REFEREE_API_KEY", metavar="KEY",
                     help="Send KEY in X-API-Key, where the gateway requires keys "
                          "($REFEREE_API_KEY)."),
        click.option("--lang", "language", metavar="LANGUAGE",
                     help="Word the explanations and problems in LANGUAGE (en, fr) "
                          "over REST or --local; the engine's gRPC answers are in English."),
        click.option("--json", "as_json", is_flag=True,
                     help="Print one JSON object per input (JSON Lines): its file, outcome, "
                          "and the answer or the problem."),
        click.option("--details", is_flag=True,
                     help="With many inputs, print each one's table before the summary."),
    ]
    for decorator in reversed(decorators):
        function = decorator(function)
    return function


def _command(game: str, name: str, command: Command) -> click.Command:
    @_options
    def ask(**options: Any) -> None:
        _run(game, command, **options)

    return click.command(name, help=command.help)(ask)


def _game(name: str) -> click.Group:
    return click.Group(name, help=GAMES[name], commands=[
        _command(name, command, spec) for command, spec in COMMANDS[name].items()])


for _name in COMMANDS:
    main.add_command(_game(_name))


def _run(game: str, command: Command, inputs: tuple[str, ...], url: str,
         grpc_address: str | None, local: bool, timeout: float, api_key: str | None,
         language: str | None,
         as_json: bool, details: bool) -> None:
    """Ask about each input in turn, print as asked, and exit with the worst outcome's
    code; the first input no referee answered ends the run (the next would not be)."""
    ctx = click.get_current_context()
    chosen = [ctx.get_parameter_source("url") is ParameterSource.COMMANDLINE,
              grpc_address is not None, local]
    if sum(chosen) > 1:
        raise click.UsageError("choose one of --url, --grpc and --local")
    if language and grpc_address:
        raise click.UsageError("--lang words the gateway's answers: use it with --url or "
                               "--local (the engine answers codes and params, in English)")
    found: list[Source] = sources(inputs)
    table = command.seat and player_files(inputs, found, command.seat, ITEMS[game].marker)
    if table:
        found = [table]
    out = Console(markup=False, emoji=False, highlight=False)
    err = Console(stderr=True, markup=False, emoji=False, highlight=False)
    results: list[Result] = []
    try:
        with connect(url, grpc_address, local, timeout, language, api_key) as referee:
            for source in found:
                result = referee.ask(command.call, source)
                results.append(result)
                result.hint = _fitting(game, result)
                if as_json:
                    click.echo(json.dumps(_json_line(result), ensure_ascii=False))
                elif len(found) == 1 or details:
                    _print(command, result, out, err)
                if result.outcome is Outcome.UNAVAILABLE:
                    assert result.failure is not None
                    err.print(f"referee: {referee.name} did not answer: "
                              f"{result.failure.title}: {result.failure.detail}")
                    break
            places = (_places(referee, COMMANDS[game][command.places_by], results)
                      if command.places_by and len(found) > 1 and not as_json
                      and all(r.outcome is not Outcome.UNAVAILABLE for r in results)
                      else None)
    except LocalUnavailableError as error:
        err.print(f"referee: {error}")
        ctx.exit(EXIT_UNAVAILABLE)
    if len(found) > 1 and not as_json:
        out.print(show.summary(results, len(found), command.result, places))
    ctx.exit(max(result.outcome.exit_code for result in results))


def _places(referee: Referee, ranking: Command, results: list[Result]) -> show.Places:
    """The answered inputs placed by the referee's tie-breaks, as one table of players
    named by their files; or why they could not be (more than a table holds, say)."""
    answered = [result.source for result in results if result.outcome is Outcome.ANSWERED]
    if not answered:
        return show.Places({}, [], None)
    assert ranking.seat is not None
    table = Table("", members=tuple(answered), seat=ranking.seat)
    result = referee.ask(ranking.call, table)
    if result.outcome is not Outcome.ANSWERED:
        assert result.failure is not None
        return show.Places({}, [], "; ".join(detail for _, detail in result.problems)
                           or result.failure.detail)
    place = {standing["name"]: standing["place"] for standing in result.answer["standings"]}
    return show.Places(
        {source.name: place[player["name"]]
         for source, player in zip(answered, result.body["players"], strict=True)},
        result.answer["winners"], None)


def _fitting(game: str, result: Result) -> str | None:
    """For a refused input that is the other game's board or town (or a ranking of
    them), the command that takes it."""
    if result.outcome is not Outcome.INVALID or not isinstance(result.body, dict):
        return None
    body = result.body
    players = body.get("players")
    seated = (players[0] if isinstance(players, list) and players
              and isinstance(players[0], dict) else {})
    for other, item in ITEMS.items():
        if other == game:
            continue
        if item.marker in body and ITEMS[game].marker not in body:
            return f"this is a {item.name}: try referee {other} score"
        seat = COMMANDS[other]["rank"].seat
        if seat in seated and COMMANDS[game]["rank"].seat not in seated:
            return f"these are {item.name}s: try referee {other} rank"
    return None


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
                        show.problems_table(result.problems),
                        *([Text(result.hint)] if result.hint else [])))


def _json_line(result: Result) -> Json:
    """An input's outcome as JSON: ``file``, ``outcome`` (answered, illegal, invalid,
    unavailable), the ``answer`` as the referee gave it, or the ``problem`` with its
    ``errors`` by pointer (each with its ``code`` and ``params`` when the referee named
    them)."""
    line: dict[str, Json] = {"file": result.source.name, "outcome": result.outcome.label}
    if result.answer is not None:
        line["answer"] = result.answer
    elif result.failure is not None:
        codes = getattr(result.failure, "codes", [])
        if len(codes) != len(result.problems):
            codes = []
        errors: list[Json] = []
        for k, (pointer, detail) in enumerate(result.problems):
            entry: dict[str, Json] = {"pointer": pointer, "detail": detail}
            if codes and codes[k][0]:
                entry["code"], entry["params"] = codes[k]
            errors.append(entry)
        line["problem"] = {"status": result.failure.status, "title": result.failure.title,
                           "detail": result.failure.detail, "errors": errors}
        if result.hint:
            line["problem"]["hint"] = result.hint
    return line


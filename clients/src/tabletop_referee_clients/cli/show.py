"""How answers read to a person: rich tables, each line with its explanation.

Every renderer takes the body asked and the referee's answer (the contract's JSON, as
``--json`` prints it) and returns a headline and a table; :func:`summary` puts many
inputs in one table. Text from a body or an answer is never read as rich markup (the
consoles are made with ``markup=False``), so a name like ``[bold]`` prints as written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .asking import Outcome, Problem, Result

Json = Any


def _table(*columns: str, numeric: Iterable[str] = (), whole: Iterable[str] = ()) -> Table:
    """Columns of text that wraps, but for the ``whole`` ones (a file name), never cut."""
    table = Table(show_edge=False, pad_edge=False)
    for column in columns:
        table.add_column(column, justify="right" if column in numeric else "left",
                         overflow="fold", no_wrap=column in whole)
    return table


def _headline(text: str) -> Text:
    return Text(text, style="bold")


def _at(position: Json) -> str:
    """A position (``{"row": 1, "col": 2}`` or ``[1, 2]``) as ``(1, 2)``."""
    row, col = (position["row"], position["col"]) if isinstance(position, dict) else position
    return f"({row}, {col})"


def _names(names: list[str]) -> str:
    return ", ".join(names) or "nobody"


def problems_table(problems: list[Problem]) -> Table:
    """Each problem with the JSON Pointer of the place in the body it names."""
    table = _table("pointer", "problem")
    for pointer, detail in problems:
        table.add_row(pointer or "/", detail)
    return table


def _violations(answer: Json) -> Table:
    table = _table("pointer", "rule", "reason", "message")
    for violation in answer.get("violations", []):
        table.add_row(violation.get("pointer") or "/", violation["rule"],
                      violation["reason"], violation["message"])
    return table


# Downtown Farmers Market: a board's score.

def board_score(body: Json, answer: Json) -> RenderableType:
    """Rows and columns counted from 1, as a person counts the fixed 4x4 grid (an
    answer's ``index`` counts from 0, as its pointers do)."""
    table = _table("line", "met", "points", "explanation", "rule", numeric=["points"])
    for kind, lines in (("row", answer["rows"]), ("column", answer["columns"])):
        for line in lines:
            table.add_row(f"{kind} {line['index'] + 1}", "yes" if line["met"] else "no",
                          str(line["points"]), line["explanation"], line["rule"])
    return Group(_headline(board_result(body, answer)), table)


def board_result(body: Json, answer: Json) -> str:
    shown = f"{answer['total']} points"
    if answer["mode"] == "standard":
        shown += (f", {answer['challenges_met']} challenges met, best "
                  f"{answer['best_challenge_points']}")
    return shown + ("" if answer["complete"] else " (incomplete: scored as it stands)")


# Both games: standings.

def ranking(body: Json, answer: Json) -> RenderableType:
    return Group(_headline(ranking_result(body, answer)), _standings(answer["standings"]))


def _standings(standings: list[Json]) -> Table:
    """Place and name first, then the total and the tie-breaks the game answers."""
    others = [key for key in standings[0] if key not in ("place", "name")] if standings else []
    table = _table("place", "name", *(key.replace("_", " ") for key in others),
                   numeric=["place", *(key.replace("_", " ") for key in others)])
    for standing in standings:
        table.add_row(str(standing["place"]), standing["name"],
                      *(str(standing[key]) for key in others))
    return table


def ranking_result(body: Json, answer: Json) -> str:
    winners = answer["winners"]
    top = answer["standings"][0]["total"] if answer["standings"] else 0
    return f"{'winners' if len(winners) > 1 else 'winner'} {_names(winners)} ({top} points)"


# Both games: a replayed log.

def replay(body: Json, answer: Json) -> RenderableType:
    shown: list[RenderableType] = [_headline(replay_result(body, answer))]
    if "illegal_index" in answer:
        shown.append(_violations(answer))
    elif answer.get("standings"):
        shown.append(_standings(answer["standings"]))
    return Group(*shown)


def replay_result(body: Json, answer: Json) -> str:
    if "illegal_index" in answer:
        return f"illegal: entry {answer['illegal_index']} of the log breaks the rules"
    log: list[Json] = next((body[key] for key in ("moves", "actions") if key in body), [])
    if not answer.get("standings"):
        return (f"all {len(log)} entries legal; the game goes on in round "
                f"{answer['state']['round']}")
    shown = f"all {len(log)} entries legal; game over: {ranking_result(body, answer)}"
    solo = answer.get("solo")
    if solo:
        shown += (f"; solo setup {solo['setup']} ({solo['name']}): thresholds reached "
                  f"{', '.join(map(str, solo['reached'])) or 'none'} of "
                  f"{', '.join(map(str, solo['thresholds']))}")
    return shown


# Foxglove Farm: a town's score, a final-round plan, a transport.

def town_score(body: Json, answer: Json) -> RenderableType:
    table = _table("building", "at", "points", "explanation", "rule", numeric=["points"])
    for effect in answer["end_game"]:
        table.add_row(effect["building"], _at(effect), str(effect["points"]),
                      effect["explanation"], effect["rule"])
    headline = (f"{town_result(body, answer)} = score track {answer['score_track']} + end "
                f"game {answer['end_game_points']}; {answer['goods_remaining']} goods left, "
                f"{answer['tile_count']} tiles")
    return Group(_headline(headline), table)


def town_result(body: Json, answer: Json) -> str:
    return f"{answer['total']} points"


def plan(body: Json, answer: Json) -> RenderableType:
    table = _table("step", "action", "what", "points", numeric=["step", "points"])
    for number, step in enumerate(answer["steps"], 1):
        table.add_row(str(number), step["action"], _step(step), str(step.get("points", "")))
    track = answer["total"] - answer["processing_points"] - answer["end_game_points"]
    headline = (f"{plan_result(body, answer)}: score track {track} + processing "
                f"{answer['processing_points']} + end game {answer['end_game_points']}; "
                f"{answer['goods_remaining']} goods left")
    return Group(_headline(headline), table)


def _step(step: Json) -> str:
    if step["action"] == "move":
        return (f"{step['count']} {step['good']} from {_at(step['from'])} to "
                f"{_at(step['to'])} along {len(step['path']) - 1} tiles")
    if step["action"] == "haul":
        return f"to {_at(step['to'])}: " + ", ".join(
            f"{pick['count']} {pick['good']} from {_at(pick['from'])}" for pick in step["picks"])
    kept = "; ".join(f"{_goods(choice['goods'])} on {_at(choice)}"
                     for choice in step.get("choices", []))
    return "every processing effect" + (f"; keeping {kept}" if kept else "")


def _goods(goods: Json) -> str:
    return ", ".join(f"{count} {good}" for good, count in goods.items()) or "nothing"


def plan_result(body: Json, answer: Json) -> str:
    proof = ("proven best" if answer["optimal"] else
             f"the best found in time; no plan reaches more than {answer['upper_bound']}")
    return f"{answer['total']} points ({proof})"


def transport(body: Json, answer: Json) -> RenderableType:
    if not answer["legal"]:
        return Group(_headline(transport_result(body, answer)), _violations(answer))
    return _headline(transport_result(body, answer))


def transport_result(body: Json, answer: Json) -> str:
    if not answer["legal"]:
        return "illegal"
    return "legal, along " + " → ".join(_at(position) for position in answer["path"])


# Many inputs: one line each.

@dataclass(frozen=True)
class Places:
    """The answered inputs' places (by input name) and the winners, as the referee ranked
    them; or why it did not (``unranked``)."""

    place: dict[str, int]
    winners: list[str]
    unranked: str | None


def summary(results: list[Result], inputs: int, result_of: Callable[[Json, Json], str],
            places: Places | None = None) -> RenderableType:
    """One line per input asked (of ``inputs``): its place when ranked, its result, or
    what was wrong and where."""
    ranked = places is not None and bool(places.place)
    table = _table(*(["place"] if ranked else []), "file", "result", "problems",
                   numeric=["place"], whole=["file"])
    for result in results:
        if result.failure is None:
            shown = result_of(result.body, result.answer)
        else:
            verdict = "refused" if result.outcome is Outcome.INVALID else "no answer"
            shown = f"{verdict}: {result.failure.title} ({result.failure.status})"
        problems = [f"{pointer or '/'}: {detail}" for pointer, detail in result.problems]
        row = [result.source.name, shown, "\n".join(problems + [result.hint or ""]).strip()]
        if places is not None and ranked:
            row.insert(0, str(places.place.get(result.source.name, "")))
        table.add_row(*row)
    counts = {outcome: sum(r.outcome is outcome for r in results) for outcome in Outcome}
    headline = (f"{inputs} inputs: {counts[Outcome.ANSWERED]} answered, "
                f"{counts[Outcome.ILLEGAL]} illegal, {counts[Outcome.INVALID]} refused")
    if counts[Outcome.UNAVAILABLE]:
        headline += f"; stopped, as no referee answered: {inputs - len(results)} not asked"
    if places is not None and places.winners:
        headline += f"; {'winners' if len(places.winners) > 1 else 'winner'} " \
                    f"{_names(places.winners)}"
    parts: list[RenderableType] = [_headline(headline), table]
    if places is not None and places.unranked:
        parts.append(Text(f"not placed: {places.unranked}"))
    return Group(*parts)


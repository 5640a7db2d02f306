"""An independent reference for Downtown Farmers Market scoring and ranking.

Written from the rulings (DFM-R1..R10) alone, on contract-JSON dicts, sharing no code
with ``tabletop_rules``: the agreement tests compare the two on random boards, so a
misreading has to be made twice, in two different shapes, to go unnoticed. It favours
the obvious over the fast (per_set tries every number of copies of every set) and
says nothing about explanations, only verdicts.
"""

from __future__ import annotations

import itertools
from typing import Any

JsonDict = dict[str, Any]

SIX = ("bread", "carrot", "corn", "cheese", "milk", "egg")

RULE_BY_TYPE = {
    "majority": "DFM-R1",
    "exact_count": "DFM-R2",
    "exact_count_any": "DFM-R3",
    "exact_total": "DFM-R4",
    "one_of_each": "DFM-R5",
    "forbidden": "DFM-R6",
    "per_set": "DFM-R7",
}
YOUNG_SHOPPER_RULE = "DFM-R9"


def tally(spaces: list[list[str] | None]) -> dict[str, int]:
    """Each of the six ingredients' count on a line; empty spaces add nothing (DFM-R8)."""
    found = [name for space in spaces if space for name in space]
    return {name: found.count(name) for name in SIX}


def sets_formed(sets: list[list[str]], have: dict[str, int]) -> int:
    """DFM-R7 by brute force: try every number of copies of every shown set and keep the
    largest total that the line's ingredients can pay for, each ingredient used once."""
    needs = [{name: s.count(name) for name in s} for s in sets]
    ceilings = [min(have[name] // n for name, n in need.items()) for need in needs]
    best = 0
    for copies in itertools.product(*(range(c + 1) for c in ceilings)):
        used = {name: sum(k * need.get(name, 0) for k, need in zip(copies, needs, strict=True))
                for name in SIX}
        if all(used[name] <= have[name] for name in SIX):
            best = max(best, sum(copies))
    return best


def judge(challenge: JsonDict, have: dict[str, int]) -> tuple[bool, int]:
    """(met, points) of one challenge on a line with these counts."""
    kind = challenge["type"]
    crate = challenge["points"]
    if kind == "per_set":
        n = sets_formed(challenge["sets"], have)
        return n > 0, n * crate
    if kind == "majority":
        mine = have[challenge["ingredient"]]
        met = all(mine > have[other] for other in SIX if other != challenge["ingredient"])
    elif kind == "exact_count":
        met = all(have[name] == n for name, n in challenge["counts"].items())
    elif kind == "exact_count_any":
        met = challenge["count"] in have.values()
    elif kind == "exact_total":
        met = sum(have.values()) == challenge["count"]
    elif kind == "one_of_each":
        met = min(have.values()) >= 1
    elif kind == "forbidden":
        met = not any(have[name] for name in challenge["ingredients"])
    else:
        raise ValueError(f"unknown challenge type {kind!r}")
    return met, crate if met else 0


def score(board: JsonDict) -> JsonDict:
    """The contract's score answer (without explanations) for one board."""
    grid = board["grid"]
    rows = [list(row) for row in grid]
    columns = [[row[c] for row in grid] for c in range(len(grid[0]))]
    young = board.get("mode", "standard") == "young_shopper"
    answer: JsonDict = {"mode": "young_shopper" if young else "standard"}
    for side, lines in (("rows", rows), ("columns", columns)):
        entries = []
        for index, line in enumerate(lines):
            have = tally(line)
            if young:
                most = max(have.values())  # DFM-R9: a tie still counts once
                met, points, rule = most > 0, most, YOUNG_SHOPPER_RULE
            else:
                challenge = board[f"{side[:-1]}_challenges"][index]
                met, points = judge(challenge, have)
                rule = RULE_BY_TYPE[challenge["type"]]
            entries.append({"index": index, "met": met, "points": points, "rule": rule})
        answer[side] = entries
    every = answer["rows"] + answer["columns"]
    met_points = [] if young else [e["points"] for e in every if e["met"]]
    answer["total"] = sum(e["points"] for e in every)
    answer["complete"] = all(space is not None for row in grid for space in row)
    answer["challenges_met"] = len(met_points)
    answer["best_challenge_points"] = max(met_points, default=0)
    return answer


def rank(players: list[JsonDict]) -> JsonDict:
    """The contract's rank answer: DFM-R10 keys, competition places (1, 1, 3)."""
    scored = [(p["name"], score(p["board"])) for p in players]

    def key(answer: JsonDict) -> tuple[int, ...]:
        if answer["mode"] == "young_shopper":
            return (answer["total"],)
        return (answer["total"], answer["challenges_met"], answer["best_challenge_points"])

    rows = [{"name": name, "total": answer["total"],
             "challenges_met": answer["challenges_met"],
             "best_challenge_points": answer["best_challenge_points"],
             "place": 1 + sum(key(other) > key(answer) for _, other in scored)}
            for name, answer in scored]
    rows.sort(key=lambda row: row["place"])  # stable: tied players keep request order
    return {"standings": rows, "winners": [row["name"] for row in rows if row["place"] == 1]}

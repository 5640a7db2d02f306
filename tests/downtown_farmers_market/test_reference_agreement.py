"""The core agrees with the independent reference on random boards and rankings.

Two kinds of run: hypothesis (shrinks a disagreement to a small board) and a seeded bulk
run that also counts what it exercised, so the agreement cannot pass vacuously (every
challenge type both met and not met, Young Shopper and incomplete boards, ties broken at
each DFM-R10 level).
"""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given, note, settings

from . import reference
from .boards import JsonDict, core_rank, core_score
from .random_boards import CHALLENGE_TYPES, boards, players, random_board, random_players

BULK_BOARDS = 500
BULK_RANKINGS = 300


def assert_scores_agree(board: JsonDict) -> JsonDict:
    """Line by line (met, points, rule) and every figure; returns the reference's answer."""
    expected = reference.score(board)
    assert core_score(board) == expected, json.dumps(board)
    return expected


def assert_rankings_agree(request: list[JsonDict]) -> JsonDict:
    """Places, order, figures and winners; returns the reference's answer."""
    expected = reference.rank(request)
    assert core_rank(request) == expected, json.dumps(request)
    return expected


@settings(max_examples=300)
@given(boards())
def test_random_boards_agree(board: JsonDict) -> None:
    note(json.dumps(board))
    assert_scores_agree(board)


@settings(max_examples=150)
@given(players())
def test_random_rankings_agree(request: list[JsonDict]) -> None:
    note(json.dumps(request))
    assert_rankings_agree(request)


def test_seeded_boards_agree_and_cover_every_verdict() -> None:
    rng = random.Random(20260601)
    seen: set[tuple[str, bool]] = set()
    for _ in range(BULK_BOARDS):
        board = random_board(rng)
        answer = assert_scores_agree(board)
        seen.add(("complete", answer["complete"]))
        if answer["mode"] == "young_shopper":
            seen.add(("young_shopper", True))
            continue
        challenges = board["row_challenges"] + board["column_challenges"]
        lines = answer["rows"] + answer["columns"]
        seen.update((c["type"], line["met"]) for c, line in zip(challenges, lines, strict=True))
    expected = {(kind, met) for kind in CHALLENGE_TYPES for met in (True, False)}
    expected |= {("complete", True), ("complete", False), ("young_shopper", True)}
    assert seen >= expected, expected - seen


def test_seeded_rankings_agree_and_break_ties_at_every_level() -> None:
    rng = random.Random(20260602)
    decided_by: set[str] = set()
    for _ in range(BULK_RANKINGS):
        standings = assert_rankings_agree(random_players(rng))["standings"]
        for better, worse in itertools.pairwise(standings):
            decided_by.add(deciding_figure(better, worse))
    assert decided_by >= {"total", "challenges_met", "best_challenge_points", "shared"}


def deciding_figure(better: JsonDict, worse: JsonDict) -> str:
    """Which DFM-R10 figure separates two neighbours in the standings ("shared" if none)."""
    if better["place"] == worse["place"]:
        return "shared"
    return next(f for f in ("total", "challenges_met", "best_challenge_points")
                if better[f] != worse[f])

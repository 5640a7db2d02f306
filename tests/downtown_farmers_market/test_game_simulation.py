"""Random complete games of every mode and player count, and their logs replayed.

``DFM_RANDOM_GAMES`` sets how many games the first test plays (default 240, a few
seconds); raise it for a longer local run.
"""

from __future__ import annotations

import os
import random

import pytest

from tabletop_rules.downtown_farmers_market import (
    GRID_SIZE,
    DiscardTile,
    FoodTile,
    GameState,
    Mode,
    Move,
    Reason,
    RevealTiles,
    TakeTile,
    rank_boards,
    replay,
)
from tabletop_rules.downtown_farmers_market.replay import MAX_LOG_MOVES
from tabletop_rules.problems import InvalidInputError

from .simulator import Game, play_random_game

GAMES = int(os.environ.get("DFM_RANDOM_GAMES", "240"))
CASES = [(mode, players) for mode in Mode for players in (2, 3, 4)]
NOT_IN_ANY_BOX = FoodTile.of("egg", "egg", "egg")  # the simulator's tiles hold no egg


@pytest.mark.parametrize(("mode", "players"), CASES, ids=lambda v: getattr(v, "value", v))
def test_random_games_keep_every_invariant_and_replay_agrees(mode: Mode, players: int) -> None:
    rng = random.Random(f"{mode.value}/{players}")
    for _ in range(max(1, GAMES // len(CASES))):
        game = play_random_game(rng, mode, players)  # checks invariants move by move
        result = replay(game.setup, game.moves)
        assert result.legal and result.violations == ()
        assert result.state == game.final
        assert result.ranking == rank_boards([(p.name, p.board) for p in game.final.players])
        assert result.ranking is not None and result.ranking.winners
        cut = rng.randrange(len(game.moves))
        partial = replay(game.setup, game.moves[:cut])
        assert partial.legal and partial.state == game.states[cut] and partial.ranking is None


def corrupt(state: GameState, move: Move, rng: random.Random) -> tuple[Move, Reason]:
    """A wrong version of ``move`` in ``state``, and the reason the referee should give."""
    n = len(state.players)
    options: list[tuple[Move, Reason]]
    if isinstance(move, RevealTiles):
        options = [(RevealTiles(move.tiles[1:]), Reason.WRONG_REVEAL_SIZE),
                   (TakeTile(state.current_player, state.face_up[0], 0, 0),
                    Reason.REVEAL_REQUIRED)]
    else:
        other = (move.player + rng.randrange(1, n)) % n
        options = [(DiscardTile(other, move.tile), Reason.NOT_YOUR_TURN),
                   (RevealTiles(state.face_up[:1]), Reason.REVEAL_NOT_ALLOWED)]
        if isinstance(move, DiscardTile):
            options.append((TakeTile(move.player, move.tile, 0, 0), Reason.DISCARD_REQUIRED))
        else:
            options.append((TakeTile(move.player, NOT_IN_ANY_BOX, move.row, move.col),
                            Reason.TILE_NOT_ON_DISPLAY))
            grid = state.players[move.player].board.grid
            options.extend((TakeTile(move.player, move.tile, r, c), Reason.OCCUPIED_SPACE)
                           for r in range(GRID_SIZE) for c in range(GRID_SIZE)
                           if grid[r][c] is not None)
    return rng.choice(options)


def test_a_log_with_one_corrupted_move_is_caught_at_that_move() -> None:
    rng = random.Random(11)
    for _ in range(60):
        game: Game = play_random_game(rng, *rng.choice(CASES))
        index = rng.randrange(len(game.moves))
        bad, reason = corrupt(game.states[index], game.moves[index], rng)
        log = [*game.moves[:index], bad, *game.moves[index + 1:]]
        result = replay(game.setup, log)
        assert result.illegal_index == index, (bad, result.violations)
        assert reason in {v.reason for v in result.violations}
        assert result.state == game.states[index] and result.ranking is None


def test_moves_after_the_end_are_caught() -> None:
    game = play_random_game(random.Random(5), Mode.STANDARD, 4)
    result = replay(game.setup, [*game.moves, game.moves[-1]])
    assert result.illegal_index == len(game.moves)
    assert [v.reason for v in result.violations] == [Reason.GAME_OVER]
    assert result.ranking is not None  # the game did end: its result stands


def test_the_longest_legal_game_is_far_inside_the_log_limit() -> None:
    longest = max(len(play_random_game(random.Random(seed), Mode.STANDARD, 4).moves)
                  for seed in range(20))
    assert longest * 5 < MAX_LOG_MOVES


def test_a_log_past_the_limit_is_refused_before_it_is_replayed() -> None:
    game = play_random_game(random.Random(6), Mode.STANDARD, 2)
    log = [game.moves[-1]] * (MAX_LOG_MOVES + 1)
    with pytest.raises(InvalidInputError) as caught:
        replay(game.setup, log)
    [problem] = caught.value.problems
    assert problem.path == ("moves",)
    assert problem.message == f"at most {MAX_LOG_MOVES} moves (the limit); got {MAX_LOG_MOVES + 1}"

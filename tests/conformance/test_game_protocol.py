"""The same checks for every game that follows :class:`tabletop_rules.game.Game`.

Each test plays random complete games of every registered game and checks what any
referee must guarantee: legal moves are distinct and each validates and applies; the
move actually played was among them; each declared illegal variant is refused for its
reason, with a rule, a message and a pointer into the move; states survive the trip
through protobuf and JSON unchanged; replaying the log reaches the same end and
standings; the turn and the standings agree on when the game is over.
"""

from __future__ import annotations

import random

import pytest

from tabletop_rules import game as protocol

from .games import GAMES, GameUnderTest, PlayedGame

GAMES_PER_TEST = 6
STATES_CHECKED_PER_GAME = 8


def played(under_test: GameUnderTest, seed: int) -> list[PlayedGame]:
    rng = random.Random(f"{under_test.name}/{seed}")
    return [under_test.random_game(rng) for _ in range(GAMES_PER_TEST)]


def sampled_steps(game: PlayedGame, rng: random.Random) -> list[int]:
    """Indices of a few states that have a move after them."""
    steps = range(len(game.moves))
    return sorted(rng.sample(steps, min(STATES_CHECKED_PER_GAME, len(steps))))


parametrize = pytest.mark.parametrize("under_test", GAMES, ids=lambda g: g.name)


@parametrize
def test_every_legal_move_validates_and_applies_and_none_repeats(under_test) -> None:
    rules = under_test.game
    rng = random.Random(1)
    for game in played(under_test, 1):
        for i in sampled_steps(game, rng):
            state, move = game.states[i], game.moves[i]
            legal = list(rules.legal_moves(state))
            assert len(set(legal)) == len(legal), "a legal move is listed twice"
            if rules.turn(state).player is not None:
                assert move in legal, "the move played was not listed as legal"
            else:
                assert legal == [], "no player chooses at a chance step"
            for candidate in legal:
                verdict = rules.validate(state, candidate)
                assert verdict.legal and verdict.next_state is not None, verdict.violations
                assert protocol.apply(rules, state, candidate) == verdict.next_state
            assert protocol.apply(rules, state, move) == game.states[i + 1]


@parametrize
def test_declared_illegal_variants_are_refused_for_their_reason(under_test) -> None:
    rules = under_test.game
    rng = random.Random(2)
    for game in played(under_test, 2):
        for i in sampled_steps(game, rng):
            state = game.states[i]
            wrong, reason = under_test.illegal_variant(state, game.moves[i], rng)
            verdict = rules.validate(state, wrong)
            assert not verdict.legal and verdict.next_state is None
            assert reason in {v.reason for v in verdict.violations}, (wrong, verdict.violations)
            for violation in verdict.violations:
                assert violation.rule and violation.message
                assert violation.pointer("move").startswith("/move")
            with pytest.raises(protocol.IllegalMoveError):
                protocol.apply(rules, state, wrong)


@parametrize
def test_states_survive_protobuf_and_json_unchanged(under_test) -> None:
    for game in played(under_test, 3):
        for state in [*game.states[::7], game.states[-1]]:
            assert under_test.wire_round_trip(state) == state


@parametrize
def test_replaying_the_log_reaches_the_same_end_and_standings(under_test) -> None:
    rules = under_test.game
    for game in played(under_test, 4):
        result = protocol.replay(rules, game.setup, game.moves)
        assert result.legal and result.state == game.states[-1]
        assert result.ranking == rules.standings(game.states[-1])
        assert result.ranking is not None and result.ranking.winners


@parametrize
def test_the_turn_and_the_standings_agree_on_the_end(under_test) -> None:
    rules = under_test.game
    for game in played(under_test, 5):
        for state in game.states[:-1]:
            assert rules.turn(state).expected is not None and rules.standings(state) is None
        final = rules.turn(game.states[-1])
        assert final == protocol.Turn(None, None)
        assert rules.standings(game.states[-1]) is not None

"""The answer to ReplayGame, which every game's service shapes alike: whether the log is
legal, the first illegal entry's index and violations, the state reached, and at the
game's end the standings, winners and every player's score (in seat order)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from tabletop_rules.game import ReplayResult
from tabletop_rules.standings import Ranking
from tabletop_rules.verdicts import Violation

from . import wire


class ReplayWriter:
    """Writes a game's ReplayGame answer with the game's own writers of its parts."""

    def __init__(self, response: Descriptor, state: Callable[[Any], bytes],
                 violations: Callable[[Sequence[Violation[Any]], int], Sequence[Message]],
                 standings: Callable[[Ranking[Any]], Sequence[Message]],
                 score: Callable[[Any], bytes]) -> None:
        """``violations`` are those of the log's entry at the index given."""
        (self._legal, self._illegal_index, self._violations, self._state, self._standings,
         self._winners, self._scores) = (
            wire.key(response, name) for name in ("legal", "illegal_index", "violations",
                                                  "state", "standings", "winners", "scores"))
        self._write_state, self._write_violations = state, violations
        self._write_standings, self._write_score = standings, score

    def write(self, result: ReplayResult[Any, Any, Any]) -> bytes:
        """The answer, less what a game adds after the scores."""
        index, ranking = result.illegal_index, result.ranking
        parts = [wire.number(self._legal, result.legal),
                 b"" if index is None else wire.present(self._illegal_index, index),
                 wire.part(self._state, self._write_state(result.state))]
        if index is not None:
            parts.append(wire.messages(self._violations,
                                       self._write_violations(result.violations, index)))
        if ranking is not None:
            by_name = {standing.name: standing.score for standing in ranking.standings}
            parts.extend([
                wire.messages(self._standings, self._write_standings(ranking)),
                *[wire.part(self._winners, name.encode()) for name in ranking.winners],
                *[wire.part(self._scores, self._write_score(by_name[player.name]))
                  for player in result.state.players]])
        return b"".join(parts)

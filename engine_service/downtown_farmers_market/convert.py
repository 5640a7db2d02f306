"""The one place that converts between Downtown Farmers Market protobufs and rule values:
what the servicer calls, from the modules that do it.

Requests are read by :mod:`.message_reading`, on the shared collecting reader: every
problem with its path in the contract's JSON form, then the rules' own validation, so the
rules are only ever called on input they accept; boards and Food tiles are read straight
from their encoding first. Answers are written by :mod:`.game_answers` (states, moves,
turns, verdicts, replays) and :mod:`.score_answers` (scores, readings, standings, the
Challenge types), boards by :mod:`.board_writing`, many of them as encodings joined from
parts looked up in :mod:`.encodings` and parsed at once.
"""

from .encodings import Encodings
from .game_answers import (
    legal_moves_to_proto,
    move_to_proto,
    replay_to_proto,
    state_to_proto,
    turn_to_proto,
    verdict_to_proto,
    violations_to_proto,
)
from .message_reading import (
    board_from_proto,
    log_from_proto,
    players_from_proto,
    setup_from_proto,
    state_and_move_from_proto,
    state_from_proto,
    transcription_from_proto,
)
from .score_answers import (
    board_score_to_proto,
    challenge_types_to_proto,
    readings_to_proto,
    standings_to_proto,
)

__all__ = [
    "Encodings", "board_from_proto", "board_score_to_proto", "challenge_types_to_proto",
    "legal_moves_to_proto", "log_from_proto", "move_to_proto", "players_from_proto",
    "readings_to_proto", "replay_to_proto", "setup_from_proto", "standings_to_proto",
    "state_and_move_from_proto", "state_from_proto", "state_to_proto",
    "transcription_from_proto", "turn_to_proto", "verdict_to_proto", "violations_to_proto",
]

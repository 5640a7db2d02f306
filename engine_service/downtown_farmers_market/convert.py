"""The one place that converts between Downtown Farmers Market protobufs and rule values:
what the servicer calls, from the modules that do it.

Requests are read by :mod:`.message_reading`, on the shared collecting reader: every
problem with its path in the contract's JSON form, then the rules' own validation, so the
rules are only ever called on input they accept. The requests most calls make (a board to
score or boards to rank, a state, a state and a move) are read from their bytes first, by
:mod:`.byte_reading`, which leaves what it cannot read to protobuf and that reader. Answers are written by :mod:`.game_answers` (states, moves,
turns, verdicts, replays) and :mod:`.score_answers` (scores, readings, standings, the
Challenge types), boards by :mod:`.board_writing`: each answer as its encoding, joined
from parts often looked up in :mod:`.encodings`, which the servicer returns as it is.
"""

from .byte_reading import (
    legal_moves_request,
    rank_players_request,
    score_board_request,
    validate_move_request,
)
from .encodings import Encodings
from .game_answers import (
    legal_moves_to_wire,
    move_to_wire,
    new_game_to_wire,
    replay_to_wire,
    state_to_wire,
    verdict_to_wire,
)
from .message_reading import (
    board_from_proto,
    log_from_proto,
    setup_from_proto,
    state_and_move_from_proto,
    state_from_proto,
)
from .score_answers import (
    board_score_to_wire,
    challenge_types_to_wire,
    ranking_to_wire,
    scored_board_to_wire,
)

__all__ = [
    "Encodings", "board_from_proto", "board_score_to_wire", "challenge_types_to_wire",
    "legal_moves_request", "legal_moves_to_wire", "log_from_proto", "move_to_wire",
    "new_game_to_wire", "rank_players_request", "ranking_to_wire", "replay_to_wire",
    "score_board_request", "scored_board_to_wire", "setup_from_proto",
    "state_and_move_from_proto", "state_from_proto", "state_to_wire", "validate_move_request",
    "verdict_to_wire",
]

"""The one place that converts between Foxglove Farm protobufs and the rules: what the
servicer calls, from the modules that do it.

Requests are read straight into rule values on the shared collecting reader
(:mod:`engine_service.reading`): towns and transports by :mod:`.town_reading`, game
states, setups, actions and logs by :mod:`.game_reading`. The reader reports only what the
wire form gets wrong, then the rules' own checks add the rest, so every problem has the
message and the path into the contract's JSON that a REST caller gets. Where the reader
could not read a part, a placeholder stands in and the rules' checks are told to say
nothing of it, so a transcribed state hears of every problem at once, each once.

Answers are written from the rules' values, as their encodings, which the servicer
returns as they are: on towns (scores, rankings, transports, plans) by
:mod:`.town_answers`, on the game (states, actions, verdicts, replays, the catalog) by
:mod:`.game_answers`. The enums' numbers both ways are :mod:`.enums`'.
"""

from .game_answers import (
    action_to_proto,
    action_verdict_to_wire,
    catalog_to_wire,
    legal_moves_to_wire,
    new_game_to_wire,
    replay_to_wire,
    state_to_wire,
)
from .game_reading import (
    log_from_proto,
    setup_from_proto,
    state_and_action_from_proto,
    state_from_proto,
)
from .town_answers import (
    plan_to_wire,
    ranking_to_wire,
    score_to_wire,
    scored_town_to_wire,
    town_to_wire,
    transport_verdict_to_wire,
    versions,
)
from .town_reading import (
    players_from_proto,
    town_from_proto,
    town_readings_from_proto,
    transport_from_proto,
)

__all__ = [
    "action_to_proto", "action_verdict_to_wire", "catalog_to_wire", "legal_moves_to_wire",
    "log_from_proto", "new_game_to_wire", "plan_to_wire", "players_from_proto",
    "ranking_to_wire", "replay_to_wire", "score_to_wire", "scored_town_to_wire",
    "setup_from_proto", "state_and_action_from_proto", "state_from_proto", "state_to_wire",
    "town_from_proto", "town_readings_from_proto", "town_to_wire",
    "transport_from_proto", "transport_verdict_to_wire", "versions",
]

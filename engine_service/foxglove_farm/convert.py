"""The one place that converts between Foxglove Farm protobufs and the rules: what the
servicer calls, from the modules that do it.

Requests are read straight into rule values on the shared collecting reader
(:mod:`engine_service.reading`): towns and transports by :mod:`.town_reading`, game
states, setups, actions and logs by :mod:`.game_reading`. The reader reports only what the
wire form gets wrong, then the rules' own checks add the rest, so every problem has the
message and the path into the contract's JSON that a REST caller gets. Where the reader
could not read a part, a placeholder stands in and the rules' checks are told to say
nothing of it, so a transcribed state hears of every problem at once, each once.

Answers are built from the rules' values: on towns (scores, rankings, transports, plans)
by :mod:`.town_answers`, on the game (states, actions, verdicts, replays, the catalog) by
:mod:`.game_answers`. The enums' numbers both ways are :mod:`.enums`'.
"""

from .game_answers import (
    action_to_proto,
    action_verdict_to_proto,
    catalog_to_proto,
    legal_moves_to_proto,
    replay_to_proto,
    state_to_proto,
    turn_to_proto,
)
from .game_reading import (
    log_from_proto,
    setup_from_proto,
    state_and_action_from_proto,
    state_from_proto,
)
from .town_answers import (
    plan_to_proto,
    ranking_to_proto,
    score_to_proto,
    town_readings_to_proto,
    town_to_proto,
    transport_verdict_to_proto,
    versions,
)
from .town_reading import (
    players_from_proto,
    town_from_proto,
    town_readings_from_proto,
    transport_from_proto,
)

__all__ = [
    "action_to_proto", "action_verdict_to_proto", "catalog_to_proto", "legal_moves_to_proto",
    "log_from_proto", "players_from_proto", "plan_to_proto", "ranking_to_proto",
    "replay_to_proto", "score_to_proto", "setup_from_proto", "state_and_action_from_proto",
    "state_from_proto", "state_to_proto", "town_from_proto", "town_readings_from_proto",
    "town_readings_to_proto", "town_to_proto", "transport_from_proto",
    "transport_verdict_to_proto", "turn_to_proto", "versions",
]

"""The load test's requests: what companion apps and tournament servers send, and how often.

Kept apart from ``locustfile.py`` so that ``load_test.py`` can check the payloads without
importing locust (which patches the standard library with gevent as it is imported).
The mix, per 100 requests: a table's app mostly asks for legal moves and judges moves
while a game is played, and scores and ranks once it is over; the final-round planner is
asked rarely: it is seat-limited on the engine, and a busy planner's 429 (the documented
answer, with Retry-After) counts in the statistics' failures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ceilings import REPO_ROOT, build_calls  # noqa: E402

SEED = 20261201

_CALLS = {call.name: call for call in build_calls(SEED)}
_KULY = json.loads((REPO_ROOT / "tests/data/foxglove_farm/"
                    "kuly_transport_and_processing.json").read_text())["town"]
_BOARD = _CALLS["DFM score"].body
PAYLOADS: dict[str, tuple[str, Any]] = {
    "DFM score": ("/v1/downtown-farmers-market/score", _BOARD),
    "DFM rank": ("/v1/downtown-farmers-market/rank", {"players": [
        {"name": "Ana", "board": _BOARD}, {"name": "Bo", "board": _BOARD}]}),
    "DFM legal moves": ("/v1/downtown-farmers-market/legal-moves",
                        _CALLS["DFM legal moves"].body),
    "DFM validate": ("/v1/downtown-farmers-market/moves/validate",
                     _CALLS["DFM validate"].body),
    "FF score": ("/v1/foxglove-farm/score", _KULY),
    "FF rank": ("/v1/foxglove-farm/rank", {"players": [
        {"name": "Kuly", "town": _KULY}, {"name": "Mira", "town": _KULY}]}),
    "FF transport validate": ("/v1/foxglove-farm/transport/validate",
                              _CALLS["FF transport validate"].body),
    "FF new game": ("/v1/foxglove-farm/games", {
        "players": [{"name": "Kuly"}, {"name": "Mira", "variant": "expert"}],
        "a_tiles": ["granary", "charcoal_kiln", "barn", "coal_mine", "coal_mine",
                    "lambing_shed", "allotment"],
        "c_tiles": ["bakery", "bakery", "furniture_store", "marketplace", "grocer"]}),
    "FF plan": ("/v1/foxglove-farm/final-round/plan", _KULY),
}
"""Each request's URL path and body, by the name the statistics use."""

WEIGHTS = {"DFM score": 20, "DFM rank": 5, "DFM legal moves": 25, "DFM validate": 25,
           "FF score": 8, "FF rank": 2, "FF transport validate": 10, "FF new game": 4,
           "FF plan": 1}
"""How many of every 100 requests are of each kind."""

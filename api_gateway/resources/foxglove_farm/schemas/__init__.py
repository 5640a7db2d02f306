"""The contract's Foxglove Farm JSON, read into protobuf requests and written from answers.

These schemas check JSON types and names, and refuse what a protobuf message cannot
carry (a tile that is both a building and a trail, numbers beyond 32 bits, a catalog that
nests absurdly deep); what makes a town well formed (the starting tile, connected tiles,
goods a building may hold, known buildings, catalog definitions) is the rules' to say, and
the engine's answers carry those problems as pointers into the same JSON.

By message family, each part on those below it: ``pieces`` (coordinates, goods and their
counts, the catalog), ``town`` (tiles, towns, the rank and transport requests),
``scores`` (the scoring and transport answers), ``plans`` (the final round's plan). Here
are the names the routes, the game's schemas and the other resources use.
"""

from __future__ import annotations

from .pieces import (
    CatalogField,
    coordinate,
    COORDINATE,
    good_type,
    GoodsField,
    int32,
    player_name,
    SEAT,
    side,
    variant,
)
from .town import (
    position,
    RankTownsSchema,
    ScoreTownSchema,
    TownPositionSchema,
    TownSchema,
    TransportMoveSchema,
    TransportRequestSchema,
)
from .scores import (
    answered_int,
    TownRankingSchema,
    TownScoreSchema,
    TownStandingSchema,
    TransportVerdictSchema,
)
from .plans import (
    FinalRoundPlanSchema,
)

__all__ = [
    "answered_int",
    "CatalogField",
    "coordinate",
    "COORDINATE",
    "FinalRoundPlanSchema",
    "good_type",
    "GoodsField",
    "int32",
    "player_name",
    "position",
    "RankTownsSchema",
    "ScoreTownSchema",
    "SEAT",
    "side",
    "TownPositionSchema",
    "TownRankingSchema",
    "TownSchema",
    "TownScoreSchema",
    "TownStandingSchema",
    "TransportMoveSchema",
    "TransportRequestSchema",
    "TransportVerdictSchema",
    "variant",
]

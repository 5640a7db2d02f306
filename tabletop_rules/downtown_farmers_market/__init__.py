"""Downtown Farmers Market: boards, the seven challenges, scoring and ranking.

>>> from tabletop_rules.downtown_farmers_market import *
>>> row = (FoodTile.of("carrot", "carrot"), FoodTile.of("corn"), None, None)
>>> Majority(Ingredient.CARROT, points=4).evaluate(count_ingredients(row)).points
4
"""

from .challenges import (
    Challenge,
    ExactCount,
    ExactCountAny,
    ExactTotal,
    Forbidden,
    LineVerdict,
    Majority,
    OneOfEach,
    PerSet,
)
from .model import (
    GRID_SIZE,
    INGREDIENTS,
    Board,
    FoodTile,
    Grid,
    Ingredient,
    Mode,
    Space,
    count_ingredients,
    empty_grid,
)
from .ranking import Ranking, Standing, rank_boards, tie_break_key
from .scoring import BoardScore, LineScore, score_board
from .validation import check_board, check_challenge, check_players, validate_board

__all__ = [
    "GRID_SIZE", "INGREDIENTS", "Board", "BoardScore", "Challenge", "ExactCount",
    "ExactCountAny", "ExactTotal", "FoodTile", "Forbidden", "Grid", "Ingredient",
    "LineScore", "LineVerdict", "Majority", "Mode", "OneOfEach", "PerSet", "Ranking",
    "Space", "Standing", "check_board", "check_challenge", "check_players",
    "count_ingredients", "empty_grid", "rank_boards", "score_board", "tie_break_key",
    "validate_board",
]

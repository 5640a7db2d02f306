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
    Majority,
    OneOfEach,
    PerSet,
)
from .draft import REVEAL_SIZE, ROUNDS, TOTAL_TILES, Action
from .game import GAME, DowntownFarmersMarket
from .legality import Reason, Verdict, Violation, describe_tile, legal_moves, validate
from .line_verdict import LineVerdict
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
from .moves import DiscardTile, Move, RevealTiles, Setup, TakeTile, canonical_tile, check_move
from .ranking import Ranking, Standing, rank_boards, tie_break_key
from .replay import ReplayResult, replay
from .scoring import BoardScore, CountedCell, LineScore, score_board
from .setup import check_setup, new_game
from .state import RULES_VERSION, GameState, Player, check_state
from .validation import check_board, check_challenge, check_players, check_tile, validate_board

__all__ = [
    "GRID_SIZE", "INGREDIENTS", "Board", "BoardScore", "Challenge", "CountedCell",
    "ExactCount", "ExactCountAny", "ExactTotal", "FoodTile", "Forbidden", "Grid",
    "Ingredient", "LineScore", "LineVerdict", "Majority", "Mode", "OneOfEach", "PerSet", "Ranking",
    "Space", "Standing", "check_board", "check_challenge", "check_players",
    "count_ingredients", "empty_grid", "rank_boards", "score_board", "tie_break_key",
    "validate_board",
    # the game: state, moves, legality, replay
    "GAME", "REVEAL_SIZE", "ROUNDS", "RULES_VERSION", "TOTAL_TILES", "Action", "DiscardTile",
    "DowntownFarmersMarket",
    "GameState", "Move", "Player", "Reason", "ReplayResult", "RevealTiles", "Setup",
    "TakeTile", "Verdict", "Violation", "canonical_tile", "check_move", "check_setup",
    "check_state", "check_tile", "describe_tile", "legal_moves", "new_game", "replay",
    "validate",
]

"""Contract-JSON boards for the service tests, and a hypothesis strategy for more.

The shapes follow the public contract; the expectations tests draw from them come from
the rulings, not from the code.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

INGREDIENTS = ["bread", "carrot", "corn", "cheese", "milk", "egg"]

SIMPLE_BOARD: dict[str, Any] = {
    "mode": "standard",
    "row_challenges": [
        {"type": "majority", "ingredient": "corn", "points": 4},
        {"type": "exact_total", "count": 5, "points": 11},
        {"type": "per_set", "sets": [["bread"]], "points": 1},
        {"type": "one_of_each", "points": 5},
    ],
    "column_challenges": [
        {"type": "exact_count", "counts": {"corn": 2, "carrot": 1}, "points": 6},
        {"type": "forbidden", "ingredients": ["cheese", "milk", "corn"], "points": 8},
        {"type": "exact_count_any", "count": 7, "points": 3},
        {"type": "forbidden", "ingredients": ["cheese"], "points": 4},
    ],
    "grid": [
        [["corn", "corn"], ["egg"], None, ["bread", "milk", "cheese"]],
        [None, None, None, None],
        [None, None, None, None],
        [None, None, None, None],
    ],
}
"""Row 0 holds corn x2, egg, bread, milk, cheese: corn is the majority (4 points, DFM-R1);
column 1 holds only an egg, so no cheese, milk or corn (8 points, DFM-R6); column 3 holds
cheese (forbidden: 0). Nothing else is met: 12 points, incomplete."""

SIMPLE_BOARD_TOTAL = 12

ingredient = st.sampled_from(INGREDIENTS)
food_tile = st.lists(ingredient, min_size=1, max_size=3)
grid = st.lists(st.lists(st.none() | food_tile, min_size=4, max_size=4), min_size=4, max_size=4)
points = st.integers(0, 100)
line_count = st.integers(1, 12)

challenge = st.one_of(
    st.builds(lambda c, p: {"type": "exact_count", "counts": c, "points": p},
              st.dictionaries(ingredient, line_count, min_size=1, max_size=3), points),
    st.builds(lambda i, p: {"type": "forbidden", "ingredients": i, "points": p},
              st.lists(ingredient, min_size=1, max_size=3, unique=True), points),
    st.builds(lambda n, p: {"type": "exact_count_any", "count": n, "points": p},
              line_count, points),
    st.builds(lambda n, p: {"type": "exact_total", "count": n, "points": p}, line_count, points),
    st.builds(lambda p: {"type": "one_of_each", "points": p}, points),
    st.builds(lambda i, p: {"type": "majority", "ingredient": i, "points": p}, ingredient, points),
    st.builds(lambda s, p: {"type": "per_set", "sets": s, "points": p},
              st.lists(st.lists(ingredient, min_size=1, max_size=3), min_size=1, max_size=3),
              points),
)

standard_board = st.builds(
    lambda rows, columns, g: {"mode": "standard", "row_challenges": rows,
                              "column_challenges": columns, "grid": g},
    st.lists(challenge, min_size=4, max_size=4), st.lists(challenge, min_size=4, max_size=4),
    grid)
young_shopper_board = st.builds(lambda g: {"mode": "young_shopper", "grid": g}, grid)
board = standard_board | young_shopper_board

"""Random JSON, and valid bodies with one random part replaced by it, for the fuzz tests
that check no body gets a server error."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=30)
"""Any JSON value (JSON has no NaN or Infinity: a body with them is a 400)."""


def mutated(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value drawn from ``valid`` with one random part replaced by random JSON."""

    @st.composite
    def mutate(draw: st.DrawFn) -> Any:
        value = draw(valid)
        path = []
        node = value
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            key = draw(st.sampled_from(list(node) if isinstance(node, dict)
                                       else range(len(node))))
            path.append(key)
            node = node[key]
        replacement = draw(json_values)
        if not path:
            return replacement
        target = value
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = replacement
        return value

    return mutate()

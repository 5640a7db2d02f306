"""Foxglove Farm towns the service tests share: the rulebook's examples (golden data) and a
catalog whose final round has no best plan."""

from __future__ import annotations

from ..foxglove_farm.towns import b, load, t, town_data

KULY = load("kuly_transport_and_processing.json")
RANCH = load("ranch_example.json")

UNBOUNDED_CATALOG = {  # wood -> coal on one building, coal -> wood on the next, 1 point each
    "kiln_a": {"slots": 2, "effects": [{"kind": "convert", "inputs": {"wood": 1},
                                        "goods": {"coal": 1}, "points": 1}]},
    "kiln_b": {"slots": 2, "effects": [{"kind": "convert", "inputs": {"coal": 1},
                                        "goods": {"wood": 1}, "points": 1}]},
}
UNBOUNDED_TOWN = town_data(t(1, 0, "NE"), b(1, 1, "kiln_a", wood=1), t(1, 2, "EW"),
                           b(1, 3, "kiln_b"), catalog=UNBOUNDED_CATALOG)

"""Names as a person writes them (tabletop_rules/names.py): any case, spacing, hyphen,
apostrophe of a building's id or printed name finds it in the rules; any such spelling
of an ingredient or a good, a plural or a French word, is read by the gateway's field as
the contract's name, the compiled reader refusing what it does not read alike."""

from __future__ import annotations

import copy
from typing import Any

import marshmallow as ma
from hypothesis import given, settings
from hypothesis import strategies as st

from api_gateway.blueprint import COMPILER
from api_gateway.compiled import Refused
from api_gateway.resources.downtown_farmers_market import schemas as dfm
from api_gateway.resources.foxglove_farm import schemas as ff
from tabletop_rules.foxglove_farm import builtin_catalog
from tabletop_rules.foxglove_farm.transcription import find_building
from tabletop_rules.problems import Problem

from ..sample_boards import SIMPLE_BOARD

CATALOG = builtin_catalog()
FRENCH = {"bread": ["pain", "pains"], "carrot": ["carotte"], "corn": ["maïs"],
          "cheese": ["fromage"], "milk": ["lait"], "egg": ["œuf", "oeuf", "œufs"]}


@st.composite
def written(draw: st.DrawFn, name: str) -> str:
    """``name`` as a person may write it: each letter in either case, each space, hyphen
    or underscore as a run of any of them, an apostrophe typed or curly or left out, and
    spaces around."""
    parts = []
    for char in name:
        if char in " -_":
            parts.append(draw(st.text(" -_", min_size=1, max_size=3)))
        elif char == "'":
            parts.append(draw(st.sampled_from(["'", "’", ""])))
        else:
            parts.append(draw(st.sampled_from([char.lower(), char.upper()])))
    padding = st.text(" ", max_size=2)
    return draw(padding) + "".join(parts) + draw(padding)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), index=st.integers(0, len(CATALOG) - 1), printed=st.booleans())
def test_any_spelling_of_a_building_finds_it(data: st.DataObject, index: int,
                                             printed: bool) -> None:
    building = list(CATALOG)[index]
    typed = data.draw(written(building.name if printed else building.id))
    problems: list[Problem] = []
    assert find_building(typed, CATALOG, frozenset(), ("building",), problems) is building
    assert problems == []


def test_a_near_miss_is_told_the_nearest_printed_names() -> None:
    problems: list[Problem] = []
    assert find_building("haulers hat", CATALOG, frozenset(), ("building",), problems) is None
    (problem,) = problems
    assert problem.message.code == "FF_UNKNOWN_BUILDING_LIKE"
    assert problem.message.params["like"][0] == "Hauler's Hut"


def canonical_load(schema: type[ma.Schema], body: Any) -> Any:
    return schema().load(copy.deepcopy(body))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), ingredient=st.sampled_from(sorted(FRENCH)), plural=st.booleans(),
       french=st.booleans())
def test_any_spelling_of_an_ingredient_reads_as_its_name(
        data: st.DataObject, ingredient: str, plural: bool, french: bool) -> None:
    word = data.draw(st.sampled_from(FRENCH[ingredient])) if french else ingredient
    typed = data.draw(written(word + ("s" if plural and not french else "")))
    board = copy.deepcopy(SIMPLE_BOARD)
    board["grid"][0][0] = [typed]
    expected = copy.deepcopy(SIMPLE_BOARD)
    expected["grid"][0][0] = [ingredient]
    loaded = canonical_load(dfm.BoardSchema, board)
    assert loaded == canonical_load(dfm.BoardSchema, expected)
    try:  # the fast path reads only the contract's names, or refuses for marshmallow
        assert COMPILER.schema_loader(dfm.BoardSchema()).load(board) == loaded
    except Refused:
        assert typed != ingredient


@settings(max_examples=100, deadline=None)
@given(data=st.data(), good=st.sampled_from(["wood", "stone", "wheat", "coal", "sheep",
                                             "bois", "pierre", "blé", "charbon", "mouton"]))
def test_any_spelling_of_a_good_reads_as_its_name(data: st.DataObject, good: str) -> None:
    typed = data.draw(written(good))
    french = {"bois": "wood", "pierre": "stone", "blé": "wheat", "charbon": "coal",
              "mouton": "sheep"}
    town = {"tiles": [{"row": 0, "col": 0, "building": "forest", "goods": {typed: 2}},
                      {"row": 0, "col": 1, "building": "mine"}]}
    loaded = canonical_load(ff.TownSchema, town)
    assert getattr(loaded.tiles[0].goods, french.get(good, good)) == 2

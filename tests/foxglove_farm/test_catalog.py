"""The built-in catalog against the rulebook, and request-level definitions."""

import pytest

from tabletop_rules.foxglove_farm import (
    BonusIfHeld,
    Convert,
    ConvertDistinct,
    Gain,
    GainPerHeld,
    Good,
    Goods,
    Haul,
    PerBuildingViaTrails,
    PerSurroundingProcessor,
    Phase,
    builtin_catalog,
    catalog_to_dict,
    parse_catalog,
    parse_town,
    read_catalog_file,
)
from tabletop_rules.problems import InvalidInputError

from .towns import b, town_data

# Every building the rulebook names: appendix, starting tile, examples, solo setups.
APPENDIX = [
    "Forest", "Mine",
    "Allotment", "Alpine Meadow", "Barn", "Charcoal Kiln", "Coal Mine", "Coal Shed",
    "Fertile Plot", "Granary", "Hauler's Hut", "Hot Spring", "Industrial Farm",
    "Lambing Shed",
    "Bakehouse", "Baths", "Brewery", "Charred Grounds", "Community Centre",
    "Discount Store", "Emporium", "Forager's Camp", "Fountain", "General Goods Store",
    "Grazing Land", "Guildhall",
    "Bakery", "Butcher", "Cafe", "Foundry", "Furniture Store", "Grocer", "Market", "Ranch",
    "Distillery", "Factory", "Farmyard", "Marketplace", "Restaurant", "Smokehouse",
    "Stonemason", "Tavern", "Trading Company", "Wheat Market",
]
FROM_EXAMPLES = ["Sheepfold", "Scrapyard", "Woolmill"]
NAMED_ONLY = ["Windmill", "Lean-to", "Smallholding", "Meadow", "Timberland", "Ore Mine",
              "Swidden", "Peat Bog", "Quarry", "Volcano", "Paddock", "Museum"]
EXPERT = ["Distillery", "Factory", "Farmyard", "Marketplace", "Restaurant", "Smokehouse",
          "Stonemason", "Tavern", "Trading Company", "Wheat Market"]


def building_id(name: str) -> str:
    return name.lower().replace("'", "").replace("-", "_").replace(" ", "_")


def test_ids_follow_the_contract():
    assert [building_id(n) for n in ("Hauler's Hut", "Forager's Camp", "Lean-to")] == [
        "haulers_hut", "foragers_camp", "lean_to"]


def test_every_named_building_is_in_the_catalog_and_nothing_else():
    catalog = builtin_catalog()
    names = APPENDIX + FROM_EXAMPLES + NAMED_ONLY
    assert {b.id for b in catalog} == {building_id(n) for n in names}
    for name in names:
        assert catalog[building_id(name)].name == name


def test_named_only_buildings_are_undocumented():
    catalog = builtin_catalog()
    assert {b.id for b in catalog if not b.documented} == {building_id(n) for n in NAMED_ONLY}
    for name in NAMED_ONLY:
        building = catalog[building_id(name)]
        assert building.tiers == {"A"} and not building.effects
        assert "solo setup" in building.source_of("tiers").note


def test_tiers():
    catalog = builtin_catalog()
    assert catalog["charcoal_kiln"].tiers == {"A", "B"}
    assert catalog["forest"].tiers == catalog["mine"].tiers == {"start"}
    assert catalog["guildhall"].tiers == {"B"} and catalog["ranch"].tiers == {"C"}
    assert {b.id for b in catalog if b.expert} == {building_id(n) for n in EXPERT}


def test_every_documented_field_records_its_source():
    for building in builtin_catalog():
        if not building.documented:
            continue
        for field in ("tiers", "slots", "cost", "effects"):
            assert building.source_of(field).source in ("rulebook", "provisional"), (
                building.id, field)
        if building.source_of("slots").source == "provisional":
            assert building.source_of("slots").note


def test_values_the_rulebook_gives():
    catalog = builtin_catalog()
    butcher = catalog["butcher"]
    assert butcher.slots == 4 and butcher.source_of("slots").source == "rulebook"
    sheepfold = catalog["sheepfold"]
    assert sheepfold.cost == Goods(wood=1, stone=1)
    assert sheepfold.source_of("cost").source == "rulebook"
    assert sheepfold.effects == (Gain(Phase.IMMEDIATE, (Goods(sheep=2),)),)
    # FF-R12: the starting tile's slots are provisional
    assert (catalog["forest"].slots, catalog["mine"].slots) == (5, 3)
    assert catalog["forest"].source_of("slots").source == "provisional"
    assert catalog["charcoal_kiln"].slots >= 3  # the example moves 3 wood onto it
    assert catalog["ranch"].slots >= 8  # the Ranch example holds 8 sheep


def test_effects_read_as_the_appendix_says():
    c = builtin_catalog()
    assert c["forest"].effects == (Gain(Phase.PRODUCTION, (Goods(wood=5),)),)
    assert c["barn"].effects == (GainPerHeld(Phase.PRODUCTION, Good.SHEEP, 2, Goods(sheep=2)),)
    assert c["coal_shed"].effects == (GainPerHeld(Phase.PRODUCTION, Good.COAL, 1, points=2),)
    assert c["woolmill"].effects == (GainPerHeld(Phase.PRODUCTION, Good.SHEEP, 1, points=2),)
    assert c["charred_grounds"].effects[1] == GainPerHeld(Phase.PRODUCTION, Good.COAL, 1,
                                                          points=-1)
    emporium = c["emporium"].effects[0]
    assert isinstance(emporium, Gain) and emporium.phase is Phase.IMMEDIATE
    assert set(emporium.options) == {Goods.single(g, 5) for g in Good}
    assert c["charcoal_kiln"].effects == (Convert(Goods(wood=1), Goods(coal=1)),)
    assert c["butcher"].effects == (Convert(Goods(coal=1, sheep=1), points=7),)
    assert c["market"].effects == (ConvertDistinct(3, 9),)
    assert c["marketplace"].effects == (ConvertDistinct(4, 14),)
    assert c["trading_company"].effects == (ConvertDistinct(5, 20),)
    assert c["wheat_market"].effects == (Convert(Goods(wheat=5), points=16),)
    ranch = c["ranch"].effects
    assert ranch[0] == GainPerHeld(Phase.END_GAME, Good.SHEEP, 1, points=3, rule="FF-R7")
    assert ranch[1] == BonusIfHeld(Phase.END_GAME, Good.SHEEP, 8, 6, rule="FF-R7")
    assert c["community_centre"].effects == (PerBuildingViaTrails(3, "FF-R6"),)
    assert c["guildhall"].effects == (PerSurroundingProcessor(3, 24, "FF-R8"),)
    assert c["haulers_hut"].effects == (Haul(4),)
    assert c["fountain"].effects == (Gain(Phase.IMMEDIATE, points=6),
                                     Gain(Phase.PRODUCTION, points=3))


def test_what_buildings_depict():
    c = builtin_catalog()
    every = frozenset(Good)
    assert c["forest"].depicts == {Good.WOOD}
    assert c["charcoal_kiln"].depicts == {Good.WOOD, Good.COAL}
    assert c["fertile_plot"].depicts == {Good.COAL, Good.WHEAT, Good.SHEEP}
    assert c["market"].depicts == c["emporium"].depicts == c["haulers_hut"].depicts == every
    assert c["community_centre"].depicts == c["fountain"].depicts == frozenset()
    assert c["ranch"].depicts == {Good.SHEEP}


def test_processing_effects_are_marked():
    c = builtin_catalog()
    processors = {b.id for b in c if b.processing}
    assert "charcoal_kiln" in processors and "market" in processors
    assert not processors & {"ranch", "woolmill", "coal_shed", "forest", "guildhall"}


def test_catalog_round_trips_through_its_json_form():
    catalog = builtin_catalog()
    again = read_catalog_file({"buildings": catalog_to_dict(catalog)})
    assert again.buildings == catalog.buildings


# -- request-level definitions ------------------------------------------------------

WINDMILL = {"windmill": {"slots": 3, "effects": [
    {"kind": "gain", "when": "production", "goods": {"wheat": 2}}]}}


def test_an_undocumented_building_in_a_town_is_refused_with_how_to_define_it():
    with pytest.raises(InvalidInputError) as error:
        parse_town(town_data(b(1, 0, "windmill")))
    (problem,) = error.value.problems
    assert problem.path == ("tiles", 2, "building")
    assert "Windmill" in problem.message and '"catalog"' in problem.message
    assert "docs/" not in problem.message  # a player reads it: no file named


def test_a_request_catalog_defines_an_undocumented_building():
    town = parse_town(town_data(b(1, 0, "windmill", wheat=2), catalog=WINDMILL))
    windmill = town.building_at((1, 0)).building
    assert windmill.documented and windmill.slots == 3 and windmill.name == "Windmill"
    assert windmill.source_of("slots").source == "request"
    assert windmill.tiers == {"A"}  # kept from the built-in entry
    assert town.catalog.requested == {"windmill"}


def test_a_request_catalog_overrides_fields_of_a_documented_building():
    catalog = parse_catalog({"ranch": {"slots": {"value": 10, "source": "rulebook",
                                                 "note": "printed tile"}}})
    ranch = catalog["ranch"]
    assert ranch.slots == 10 and ranch.source_of("slots").note == "printed tile"
    assert ranch.effects == builtin_catalog()["ranch"].effects
    assert builtin_catalog()["ranch"].slots == 8  # the built-in catalog is untouched


def test_a_request_catalog_adds_a_new_building():
    catalog = parse_catalog({"clocktower": {
        "name": "Clock Tower", "tiers": ["C"], "slots": 2, "cost": {"stone": 3},
        "effects": [{"kind": "convert", "inputs": {"stone": 2}, "points": 8}]}})
    tower = catalog["clocktower"]
    assert tower.effects == (Convert(Goods(stone=2), points=8),) and tower.cost == Goods(stone=3)


@pytest.mark.parametrize(("definition", "path", "words"), [
    ({"windmill": {"slots": 3}}, ("catalog", "windmill", "effects"), "list the tile's effects"),
    ({"windmill": {"effects": []}}, ("catalog", "windmill", "slots"), "slots"),
    ({"windmill": {"slots": 3, "effects": [{"kind": "teleport"}]}},
     ("catalog", "windmill", "effects", 0, "kind"), "not an effect kind"),
    ({"windmill": {"slots": 3, "effects": [{"kind": "convert", "inputs": {"gold": 1},
                                            "points": 2}]}},
     ("catalog", "windmill", "effects", 0, "inputs", "gold"), "not a goods type"),
    ({"windmill": {"slots": 3, "effects": [{"kind": "gain", "goods": {"wheat": 1}}]}},
     ("catalog", "windmill", "effects", 0, "when"), "phase"),
    ({"windmill": {"slots": 3, "effects": [{"kind": "gain", "when": "production",
                                            "goods": {"wheat": 1}, "colour": "red"}]}},
     ("catalog", "windmill", "effects", 0, "colour"), "unknown field"),
    ({"windmill": {"slots": 99, "effects": []}}, ("catalog", "windmill", "slots"), "from 0"),
    ({"windmill": {"slots": 2, "effects": [], "status": "undocumented"}},
     ("catalog", "windmill", "status"), "defines a building fully"),
    ({"Wind Mill": {"slots": 2, "effects": []}}, ("catalog", "Wind Mill"), "snake_case"),
    ({"windmill": {"slots": 3, "effects": [{"kind": "convert", "inputs": {"wood": 1},
                                            "goods": {"wood": 2}}]}},
     ("catalog", "windmill", "effects", 0, "goods"), "more goods than it spends"),
    ({"windmill": {"slots": 3, "effects": [
        {"kind": "convert", "inputs": {"wood": 1}, "goods": {"coal": 1}},
        {"kind": "convert", "inputs": {"coal": 1}, "goods": {"wood": 1}}]}},
     ("catalog", "windmill", "effects"), "never end"),
    ({"windmill": {"slots": 3, "effects": [{"kind": "gain_per_held", "when": "end_game",
                                            "held": "wheat", "goods": {"wheat": 1}}]}},
     ("catalog", "windmill", "effects", 0, "goods"), "points only"),
    ({"windmill": {"slots": 3, "effects": [{"kind": "convert_distinct", "count": 6,
                                            "points": 30}]}},
     ("catalog", "windmill", "effects", 0, "count"), "from 1 to 5"),
    ({"windmill": {"slots": 3, "effects": [{"kind": "gain", "when": "immediate",
                                            "goods": {"wheat": 1}, "any_one_type": 2}]}},
     ("catalog", "windmill", "effects", 0), "one of goods, one_of or any_one_type"),
    ({"windmill": {"slots": {"value": 3, "source": "guess"}, "effects": []}},
     ("catalog", "windmill", "slots", "source"), "not a source"),
    ({"windmill": "big"}, ("catalog", "windmill"), "definition object"),
])
def test_request_definitions_are_checked(definition, path, words):
    with pytest.raises(InvalidInputError) as error:
        parse_catalog(definition)
    assert any(p.path == path and words in p.message for p in error.value.problems), \
        error.value.problems


def test_a_refused_definition_is_reported_once_not_again_on_the_tiles_using_it():
    with pytest.raises(InvalidInputError) as error:
        parse_town(town_data(b(1, 0, "windmill"), catalog={"windmill": {"slots": 3}}))
    assert [p.path for p in error.value.problems] == [("catalog", "windmill", "effects")]


def test_choice_and_any_type_gains():
    catalog = parse_catalog({"scrapyard": {"effects": [
        {"kind": "gain", "when": "production", "one_of": [{"wood": 1}, {"stone": 1}]}]}})
    assert catalog["scrapyard"].effects == (
        Gain(Phase.PRODUCTION, (Goods(wood=1), Goods(stone=1))),)
    assert catalog["scrapyard"].depicts == {Good.WOOD, Good.STONE}

"""The rulebook's worked examples, replayed from tests/data/foxglove_farm/."""

from tabletop_rules.foxglove_farm import (
    Goods,
    Variant,
    apply_move,
    parse_move,
    parse_town,
    run_processing,
    score_town,
    validate_transport,
)

from .towns import load

KULY = load("kuly_transport_and_processing.json")
RANCH = load("ranch_example.json")


def _tile(town, building_id):
    (tile,) = [x for x in town.buildings if x.building.id == building_id]
    return tile


def test_kuly_transport_and_processing_example():
    town = parse_town(KULY["town"])
    assert _tile(town, "charcoal_kiln").goods == Goods(coal=2)
    assert _tile(town, "forest").goods == Goods(wood=3)
    assert _tile(town, "butcher").goods == Goods(sheep=2)
    assert _tile(town, "lambing_shed").goods == Goods(sheep=1)

    for step in KULY["transportation"]:  # A, B, C
        check = validate_transport(town, parse_move(step["move"]))
        assert check.legal, (step["step"], check.violations)
        assert [p.to_list() for p in check.path] == step["path"]
        town = check.town
        for building_id, goods in step["after"].items():
            assert _tile(town, building_id).goods == Goods.of(goods), step["step"]

    result = run_processing(town)  # D and E
    processing = KULY["processing"]
    kiln, butcher = result.log
    assert kiln.building == "charcoal_kiln" and kiln.times == 3
    assert kiln.spent == Goods.of(processing["charcoal_kiln"]["spent"])
    assert kiln.made == Goods.of(processing["charcoal_kiln"]["made"])
    assert butcher.building == "butcher" and butcher.times == processing["butcher"]["times"]
    assert butcher.points == processing["butcher"]["points"]
    assert result.points == processing["points"] == 14
    assert _tile(result.town, "charcoal_kiln").goods == Goods(coal=3)
    assert _tile(result.town, "butcher").goods == Goods()

    score = score_town(result.town)  # F: the Ranch scores at the end of the game
    (ranch,) = score.end_game
    assert ranch.building == "ranch" and ranch.points == KULY["end_game"]["ranch_points"]
    assert ranch.rule == "FF-R7"
    assert score.total == KULY["town"]["score_track"] + 14 + 3


def test_kuly_example_holds_in_the_expert_variant_too():
    town = parse_town({**KULY["town"], "variant": "expert"})
    assert town.variant is Variant.EXPERT
    for step in KULY["transportation"]:
        town = apply_move(town, parse_move(step["move"]))
    assert run_processing(town).points == 14


def test_ranch_example():
    score = score_town(parse_town(RANCH["town"]))
    (ranch,) = score.end_game
    assert ranch.points == RANCH["ranch_points"] == 30
    assert (ranch.row, ranch.col) == (1, 1)
    assert "8 × 3 = 24" in ranch.explanation and "6 more" in ranch.explanation
    assert score.total == 30 and score.goods_remaining == 8 and score.tile_count == 4

"""Foxglove Farm: the building catalog, towns, routes, transport, processing and scoring.

Plain Python over immutable values; nothing here knows about protobuf, grpc or flask.

Values (:mod:`.model`; goods, sides and positions in :mod:`.pieces`)
    ``Good`` (enum, contract order wood, stone, wheat, coal, sheep), ``Goods`` (hashable
    5-vector: ``Goods(wood=3)``, ``Goods.of({"coal": 2})``, ``.count(good)``, ``.plus``,
    ``.minus``, ``.total``), ``Side`` (N, E, S, W), ``Position(row, col)``, ``Variant``
    (standard, expert), ``BuildingTile(position, building, goods)``,
    ``TrailTile(position, sides)``, ``Town(tiles, catalog, variant, score_track)`` with
    ``building_at``, ``goods_at``, ``buildings``, ``goods_remaining``, ``tile_count``,
    ``goods_state()``, ``with_goods(changes)``, ``with_score_track(n)`` and ``network``.

Catalog (:mod:`.catalog`, :mod:`.effects`; its format, read and written, in
:mod:`.catalog_format` and :mod:`.effect_format`, documented in docs/foxglove-catalog.md)
    ``builtin_catalog() -> Catalog``; ``parse_catalog(data, base=None) -> Catalog`` for a
    request's ``catalog`` object; ``read_catalog_file(data)``; ``catalog_to_dict``.
    ``Building`` (id, name, tiers, slots, cost, effects, documented, depicts, processing,
    ``source_of(field)``). Effects: ``Gain``,
    ``GainPerHeld``, ``BonusIfHeld``, ``Convert``, ``ConvertDistinct``,
    ``PerBuildingViaTrails``, ``PerSurroundingProcessor``, ``Haul``.

Towns (:mod:`.town`; reading one whatever its form, :mod:`.transcription`)
    ``check_town(town) -> list[Problem]`` (every problem, each with its path),
    ``validate_town(town)`` (raises ``InvalidInputError``).

Routes (:mod:`.routes`, FF-R1 to FF-R3)
    ``reachable(town, origin, good) -> {destination: route}``,
    ``find_route(town, origin, destination, good) -> route | None``; a route is a tuple of
    positions, origin and destination included. ``town.network`` (a ``Network``, built
    once per layout and shared by derived towns) offers ``connected(a, b)``, ``links``,
    ``routes_from(origin, good, variant)``, ``route(...)``, ``path(...)`` (ignoring what
    the destination depicts), ``buildings_via_trails(origin)``, ``building_positions``
    and ``processor_positions``.

Transport (:mod:`.transport`)
    ``Move(good, count, origin, destination)``, ``check_move(move)`` (its count and
    coordinates), ``validate_transport(town, move) -> TransportVerdict`` (legal, path,
    town after, violations with reason, rule id, message and path), ``apply_move(town, move) -> Town`` (raises
    ``IllegalMoveError``), ``free_slots(town, position)``; Hauler's Hut (FF-R17):
    ``check_haul(town, hut, picks)``, ``apply_haul(town, hut, picks)`` with ``Pick``.

Processing (:mod:`.processing`, FF-R4, FF-R15)
    ``run_processing(town, choices=None) -> ProcessingResult(town, points, log)``: every
    processing effect executed fully; the score track advances by the points.
    ``process(building, goods) -> Outcome`` is one building's canonical outcome;
    ``processing_outcomes(building, goods)`` lists every outcome FF-R4 allows it.

Scoring and ranking (:mod:`.scoring`, :mod:`.ranking`)
    ``score_town(town) -> TownScore`` (total, score_track, end_game entries,
    end_game_points, goods_remaining, tile_count), ``end_game_points(town) -> int``,
    ``rank_towns([(name, town), ...]) -> Ranking`` (FF-R16 tie-breaks, FF-R18 floor),
    ``check_players(names)``.

The contract's JSON form (:mod:`.json_form`)
    ``parse_town(data, *, catalog=None, path=()) -> Town``, ``parse_move(data)``,
    ``parse_transport_request(body) -> (town, move)``, ``parse_players(body)`` (each
    raises ``InvalidInputError`` with a Problem per problem); ``town_to_dict``,
    ``score_to_dict``, ``move_to_dict``, ``transport_verdict_to_dict``, ``ranking_to_dict``.

The whole game, four rounds (:mod:`.farm_game`, its values in :mod:`.game_state`)
    ``GAME`` follows :class:`tabletop_rules.game.Game`: ``new_game(Setup)``, ``turn``,
    ``legal_moves``, ``check_move``, ``validate`` (the next ``GameState`` or every
    violation), ``standings``; ``tabletop_rules.game.replay`` plays a log. Actions:
    ``Produce``, ``BuildBuilding``, ``BuildTrails``, ``Pass``, ``Transport``,
    ``HaulGoods``, ``ProcessGoods``, ``EndRound``, ``DrawTiles``. ``check_state`` lists
    what makes a hand-built state impossible (:mod:`.game_checks`). Its parts:
    production (:mod:`.production`), construction (:mod:`.construction`), the central
    board and solo setups (:mod:`.central_board`). The final round alone is
    :mod:`.final_round`'s ``GAME``.
"""

from .catalog import Building, Catalog, Provenance
from .catalog_format import (
    building_to_dict,
    builtin_catalog,
    catalog_to_dict,
    parse_catalog,
    read_catalog_file,
)
from .effects import (
    BonusIfHeld,
    Convert,
    ConvertDistinct,
    Effect,
    Gain,
    GainPerHeld,
    Haul,
    PerBuildingViaTrails,
    PerSurroundingProcessor,
    Phase,
    ProcessingEffect,
)
from .model import (
    GOODS,
    NO_GOODS,
    SIDES,
    BuildingTile,
    Good,
    Goods,
    Position,
    Side,
    Tile,
    TrailShape,
    TrailTile,
    Town,
    Variant,
    find_route,
    reachable,
)
from .processing import (
    Outcome,
    ProcessingEntry,
    ProcessingResult,
    Step,
    process,
    processing_outcomes,
    run_processing,
)
from .ranking import Ranking, Standing, check_players, rank_towns, tie_break_key
from .routes import Network, Route, route_to_list
from .scoring import EndGameEntry, TownScore, end_game_points, score_town
from .town import check_town, validate_town
from ..game import IllegalMoveError
from .reasons import Reason, Violation
from .transport import (
    Move,
    Pick,
    TransportVerdict,
    apply_haul,
    apply_move,
    check_haul,
    check_move,
    free_slots,
    validate_transport,
)
from .json_form import (
    move_to_dict,
    parse_move,
    parse_players,
    parse_position,
    parse_town,
    parse_transport_request,
    ranking_to_dict,
    score_to_dict,
    town_to_dict,
    transport_verdict_to_dict,
)

__all__ = [
    "apply_haul", "apply_move", "BonusIfHeld", "Building", "building_to_dict",
    "BuildingTile", "builtin_catalog", "Catalog", "catalog_to_dict", "check_haul",
    "check_move", "check_players", "check_town", "Convert", "ConvertDistinct", "Effect",
    "end_game_points", "EndGameEntry", "find_route", "free_slots", "Gain", "GainPerHeld",
    "Good", "GOODS", "Goods", "Haul", "IllegalMoveError", "Move", "move_to_dict", "Network",
    "NO_GOODS", "Outcome", "parse_catalog", "parse_move", "parse_players", "parse_position",
    "parse_town", "parse_transport_request", "PerBuildingViaTrails",
    "PerSurroundingProcessor", "Phase", "Pick", "Position", "process",
    "processing_outcomes", "ProcessingEffect", "ProcessingEntry", "ProcessingResult",
    "Provenance", "rank_towns", "Ranking", "ranking_to_dict", "reachable",
    "read_catalog_file", "Reason", "Route", "route_to_list", "run_processing",
    "score_to_dict", "score_town", "Side", "SIDES", "Standing", "Step", "tie_break_key",
    "Tile", "Town", "town_to_dict", "TownScore", "TrailShape", "TrailTile",
    "transport_verdict_to_dict", "TransportVerdict", "validate_town", "validate_transport",
    "Variant", "Violation",
]

"""The compiled hot modules (``setup.py``, :mod:`deploy.compiled`) answer exactly as their
sources do, and run only while they are current; the rules choose no build themselves."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from deploy import compiled

REPO = Path(__file__).resolve().parents[2]

_ANSWERING = r"""
import hashlib, random, sys

class Refused(Exception):
    pass

class Context:
    '''Records what the servicer refuses with, as the answer's bytes.'''
    def set_trailing_metadata(self, metadata):
        self.metadata = metadata
    def abort(self, code, details):
        raise Refused(repr((code, details, self.metadata)).encode())
    def is_active(self):
        return True
    def time_remaining(self):
        return None

digest, answers = hashlib.sha256(), 0

def answer(method, request):
    global answers
    if registration.request_deserializer(method) is None:  # it reads the request's bytes
        request = request.SerializeToString()
    try:
        data = getattr(servicer, method)(request, Context())
    except Refused as refused:
        data = refused.args[0]
    digest.update(method.encode() + len(data).to_bytes(4, "big") + data)
    answers += 1

rng = random.Random(int(sys.argv[1]))
"""
"""What every game's answers are made with: ``answer(method, request)`` calls the
``servicer`` of the ``registration`` the game's part defines (with the request's bytes,
for a method that reads them) and digests the answer's bytes or refusal."""

_GAMES = {"downtown_farmers_market": r"""
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as pb, game_pb2
from engine_service.downtown_farmers_market import convert
from engine_service.calls import CallLimits
from engine_service.downtown_farmers_market.servicer import REGISTRATION as registration
from tabletop_rules.downtown_farmers_market import Mode, TakeTile, legal_moves, scoring
from tests.downtown_farmers_market.simulator import play_random_game, random_tile

servicer = registration.servicer(CallLimits())
for _ in range(int(sys.argv[2])):
    mode = rng.choice(list(Mode))
    game = play_random_game(rng, mode, rng.randint(2, 4))
    for state in game.states:
        message = game_pb2.GameState.FromString(convert.state_to_wire(state))
        answer("ListLegalMoves", pb.ListLegalMovesRequest(state=message))
        moves = legal_moves(state)
        taken = [m for m in moves if isinstance(m, TakeTile)]
        tried = rng.sample(moves, min(3, len(moves))) + [
            TakeTile(m.player, random_tile(rng), rng.randrange(5), m.col) for m in taken[:2]]
        for move in tried:  # legal, and takes of tiles and rows that may not be
            answer("ValidateMove", pb.ValidateMoveRequest(
                state=message, move=game_pb2.Move.FromString(convert.move_to_wire(move))))
        mangled = pb.ValidateMoveRequest(state=message)
        mangled.state.pile_count += rng.choice((-1, 1))  # a state the rules refuse
        answer("ValidateMove", mangled)
    for state in (game.states[len(game.states) // 2], game.states[-1]):
        for player in game_pb2.GameState.FromString(convert.state_to_wire(state)).players:  # boards half and wholly filled
            answer("ScoreBoard", pb.ScoreBoardRequest(board=player.board))
            broken = pb.ScoreBoardRequest(board=player.board)
            space = broken.board.grid[rng.randrange(4)].spaces[rng.randrange(4)]
            space.tile.ingredients.append(99)  # an ingredient there is not
            answer("ScoreBoard", broken)
""", "foxglove_farm": r"""
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as pb, game_pb2, scoring_pb2, town_pb2
from engine_service.calls import CallLimits
from engine_service.foxglove_farm import convert
from engine_service.foxglove_farm.servicer import REGISTRATION as registration
from tabletop_rules.foxglove_farm import GOODS, scoring
from tabletop_rules.foxglove_farm.central_board import SOLO_SETUPS
from tabletop_rules.foxglove_farm.farm_game import GAME
from tests.foxglove_farm.game_simulator import play_random_game

servicer = registration.servicer(CallLimits())

def transports(town):
    '''Moves between the town's squares, legal or not: no route, no room, a good not
    held or not depicted, a trail or an empty square at an end.'''
    squares = [*town.tiles, (9, 9)]
    for _ in range(3):
        (from_row, from_col), (to_row, to_col) = rng.choice(squares), rng.choice(squares)
        yield pb.ValidateTransportRequest(town=town_pb2.Town.FromString(convert.town_to_wire(town)), move={
            "good": rng.randint(1, len(GOODS)), "count": rng.randint(1, 3),
            "origin": {"row": from_row, "col": from_col},
            "destination": {"row": to_row, "col": to_col}})

for _ in range(int(sys.argv[2])):
    players = rng.randint(1, 4)
    game = play_random_game(rng, players, rng.choice(list(SOLO_SETUPS)) if players == 1 else None,
                            composed=rng.random() < 0.5)
    for state, action in rng.sample(list(zip(game.states, game.moves)), 12):
        message = game_pb2.GameState.FromString(convert.state_to_wire(state))
        answer("ListLegalMoves", pb.ListLegalMovesRequest(state=message))
        moves = GAME.legal_moves(state)
        for move in [action, *rng.sample(moves, min(2, len(moves)))]:
            answer("ValidateAction", pb.ValidateActionRequest(
                state=message, action=convert.action_to_proto(move)))
        mangled = pb.ValidateActionRequest(state=message, action=convert.action_to_proto(action))
        mangled.state.round += rng.choice((-1, 1))  # a state the rules may refuse
        answer("ValidateAction", mangled)
        for player in state.players:  # towns as they grow
            for request in transports(player.town):
                answer("ValidateTransport", request)
    towns = [player.town for player in game.final.players]
    answer("RankPlayers", pb.RankPlayersRequest(players=[scoring_pb2.PlayerTown(
        name=f"player {i}", town=town_pb2.Town.FromString(convert.town_to_wire(town))) for i, town in enumerate(towns)]))
    for town in towns:
        request = pb.ScoreTownRequest(town=town_pb2.Town.FromString(convert.town_to_wire(town)))
        answer("ScoreTown", request)
        tiles = {(t.row, t.col): t for t in request.town.tiles if t.building}
        for held in rng.sample(town.buildings, min(2, len(town.buildings))):
            goods = [g for g in GOODS if g in held.building.depicts and not held.goods.count(g)]
            if goods:  # a good it may hold, counted in doubt
                tiles[held.position].doubtful_goods.add(
                    good=GOODS.index(rng.choice(goods)) + 1,
                    candidates=rng.sample(range(held.free_slots + 2), 2))
        answer("ScoreTown", request)
        rng.choice(list(tiles.values())).building = "no such building"
        answer("ScoreTown", request)
"""}
"""Each game's part: random games' requests, answered by the game's ``servicer``."""

_REPORT = r"""
print(scoring.__file__.rsplit(".", 1)[-1], answers, digest.hexdigest())
"""


def _answers(game: str, pure: bool, seed: int, games: int) -> list[str]:
    env = {name: value for name, value in os.environ.items()
           if name != compiled.PURE_PYTHON_VARIABLE}
    if pure:
        env[compiled.PURE_PYTHON_VARIABLE] = "1"
    script = _ANSWERING + _GAMES[game] + _REPORT
    result = subprocess.run([sys.executable, "-c", script, str(seed), str(games)],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
                            check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


@pytest.mark.parametrize(("game", "games"), [("downtown_farmers_market", 12),
                                             ("foxglove_farm", 10)])
def test_the_compiled_modules_answer_byte_for_byte_as_their_sources(game: str,
                                                                     games: int) -> None:
    """Every answer and refusal of scoring, legal moves and validation (and Foxglove
    Farm's transports and rankings), over random games: compiled code checks the declared
    types at run time, so a value of another type than its annotation says would be
    refused there and not here."""
    if compiled.outdated_sources():
        if compiled.compiling_wanted():
            pytest.fail("this machine can compile the hot modules, but they are not "
                        "compiled or are outdated: python3 deploy/test.py compiles them")
        pytest.skip("no C compiler or Python headers here (or REFEREE_COMPILE=0): "
                    "only the sources run")
    sources = _answers(game, pure=True, seed=2026, games=games)
    built = _answers(game, pure=False, seed=2026, games=games)
    assert sources[0] == "py" and built[0] == "so"
    assert int(sources[1]) > 1000
    assert sources[1:] == built[1:]


def _layout(root: Path, built: tuple[str, ...]) -> None:
    """Every compiled module's source under ``root``, an extension beside those named."""
    for source in compiled.compiled_sources(root):
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
        os.utime(source, (1000, 1000))
        if source.name in built:
            extension = source.with_name(source.stem + EXTENSION_SUFFIXES[0])
            extension.write_bytes(b"")
            os.utime(extension, (2000, 2000))


def test_a_source_newer_than_its_compiled_module_is_outdated(tmp_path: Path) -> None:
    names = tuple(source.name for source in compiled.compiled_sources(tmp_path))
    _layout(tmp_path, names)
    assert compiled.outdated_sources(tmp_path) == []
    edited = compiled.compiled_sources(tmp_path)[3]
    os.utime(edited, (3000, 3000))
    assert compiled.outdated_sources(tmp_path) == [edited]


def test_a_module_not_compiled_is_outdated(tmp_path: Path) -> None:
    sources = compiled.compiled_sources(tmp_path)
    _layout(tmp_path, tuple(source.name for source in sources[1:]))
    assert compiled.outdated_sources(tmp_path) == [sources[0]]


def test_a_module_no_longer_compiled_is_left_over(tmp_path: Path) -> None:
    """A module split or renamed since it was built leaves its extension beside its
    source (or none), which Python would import in place of the source."""
    sources = compiled.compiled_sources(tmp_path)
    _layout(tmp_path, tuple(source.name for source in sources))
    assert compiled.leftover_extensions(tmp_path) == []
    folder = sources[0].parent
    gone = folder / f"split_since{EXTENSION_SUFFIXES[0]}"
    gone.write_bytes(b"")
    kept = folder / f"now_plain{EXTENSION_SUFFIXES[0]}"
    kept.write_bytes(b"")
    (folder / "now_plain.py").write_text("")
    assert compiled.leftover_extensions(tmp_path) == sorted([kept, gone])


def test_the_sources_run_where_asked() -> None:
    """``REFEREE_PURE_PYTHON=1`` imports every compiled module from its source."""
    probe = ("from tabletop_rules.downtown_farmers_market import scoring; "
             "from engine_service.downtown_farmers_market import message_reading; "
             "print(scoring.__file__, message_reading.__file__)")
    result = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                            text=True, check=False,
                            env={**os.environ, compiled.PURE_PYTHON_VARIABLE: "1"})
    files = result.stdout.split()
    assert len(files) == 2 and all(name.endswith(".py") for name in files), result.stderr


def test_importing_the_rules_touches_no_import_machinery() -> None:
    """The build chooses which modules run (as the venv's Python starts), not the rules:
    importing every game's rules leaves the import system as it was, whichever build runs."""
    probe = ("import sys; before = list(sys.meta_path), list(sys.path_hooks); "
             "import tabletop_rules.downtown_farmers_market, tabletop_rules.foxglove_farm; "
             "print(before == (list(sys.meta_path), list(sys.path_hooks)))")
    for pure in ("0", "1"):
        result = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                                text=True, check=False,
                                env={**os.environ, compiled.PURE_PYTHON_VARIABLE: pure})
        assert result.stdout.split() == ["True"], result.stderr

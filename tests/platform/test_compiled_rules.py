"""The compiled hot modules (``setup.py``, :mod:`tabletop_rules.compiled`) answer exactly
as their sources do, and run only while they are current."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from tabletop_rules import compiled

REPO = Path(__file__).resolve().parents[2]

_ANSWERS = r"""
import hashlib, random, sys
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as pb
from engine_service.downtown_farmers_market import convert
from engine_service.downtown_farmers_market.servicer import DowntownFarmersMarketServicer
from tabletop_rules import compiled
from tabletop_rules.downtown_farmers_market import Mode, TakeTile, legal_moves, scoring
from tests.downtown_farmers_market.simulator import play_random_game, random_tile

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

servicer, digest, answers = DowntownFarmersMarketServicer(), hashlib.sha256(), 0

def answer(method, request):
    global answers
    try:
        data = getattr(servicer, method)(request, Context()).SerializeToString()
    except Refused as refused:
        data = refused.args[0]
    digest.update(method.encode() + len(data).to_bytes(4, "big") + data)
    answers += 1

rng = random.Random(int(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    mode = rng.choice(list(Mode))
    game = play_random_game(rng, mode, rng.randint(2, 4))
    for state in game.states:
        message = convert.state_to_proto(state)
        answer("ListLegalMoves", pb.ListLegalMovesRequest(state=message))
        moves = legal_moves(state)
        taken = [m for m in moves if isinstance(m, TakeTile)]
        tried = rng.sample(moves, min(3, len(moves))) + [
            TakeTile(m.player, random_tile(rng), rng.randrange(5), m.col) for m in taken[:2]]
        for move in tried:  # legal, and takes of tiles and rows that may not be
            answer("ValidateMove", pb.ValidateMoveRequest(
                state=message, move=convert.move_to_proto(move)))
        mangled = pb.ValidateMoveRequest(state=message)
        mangled.state.pile_count += rng.choice((-1, 1))  # a state the rules refuse
        answer("ValidateMove", mangled)
    for state in (game.states[len(game.states) // 2], game.states[-1]):
        for player in convert.state_to_proto(state).players:  # boards half and wholly filled
            answer("ScoreBoard", pb.ScoreBoardRequest(board=player.board))
            broken = pb.ScoreBoardRequest(board=player.board)
            space = broken.board.grid[rng.randrange(4)].spaces[rng.randrange(4)]
            space.tile.ingredients.append(99)  # an ingredient there is not
            answer("ScoreBoard", broken)
print(compiled.BUILD, scoring.__file__.rsplit(".", 1)[-1], answers, digest.hexdigest())
"""


def _answers(pure: bool, seed: int, games: int) -> list[str]:
    env = {name: value for name, value in os.environ.items()
           if name != compiled.PURE_PYTHON_VARIABLE}
    if pure:
        env[compiled.PURE_PYTHON_VARIABLE] = "1"
    result = subprocess.run([sys.executable, "-c", _ANSWERS, str(seed), str(games)],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
                            check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_the_compiled_modules_answer_byte_for_byte_as_their_sources() -> None:
    """Every answer and refusal of scoring, legal moves and validation, over random
    games of every mode: compiled code checks the declared types at run time, so a value
    of another type than its annotation says would be refused there and not here."""
    if compiled.outdated_sources():
        if compiled.compiling_wanted():
            pytest.fail("this machine can compile the hot modules, but they are not "
                        "compiled or are outdated: python3 deploy/test.py compiles them")
        pytest.skip("no C compiler or Python headers here (or REFEREE_COMPILE=0): "
                    "only the sources run")
    sources = _answers(pure=True, seed=2026, games=12)
    built = _answers(pure=False, seed=2026, games=12)
    assert sources[:2] == ["source", "py"] and built[:2] == ["compiled", "so"]
    assert int(sources[2]) > 1000
    assert sources[2:] == built[2:]


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


def test_the_sources_run_where_asked(tmp_path: Path) -> None:
    """``REFEREE_PURE_PYTHON=1`` imports every compiled module from its source."""
    probe = ("from tabletop_rules import compiled; "
             "from tabletop_rules.downtown_farmers_market import scoring; "
             "from engine_service.downtown_farmers_market import convert; "
             "print(compiled.BUILD, scoring.__file__, convert.__file__)")
    result = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                            text=True, check=False,
                            env={**os.environ, compiled.PURE_PYTHON_VARIABLE: "1"})
    build, *files = result.stdout.split()
    assert build == "source" and all(name.endswith(".py") for name in files), result.stderr

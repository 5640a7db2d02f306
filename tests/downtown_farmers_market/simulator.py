"""Random complete games of Downtown Farmers Market, played only through the referee.

The referee never sees the pile, so the simulator holds it: a box of 65 random Food tiles
(the rulebook does not list the real ones), dealt for the setup and turned over whenever
a state asks for a reveal. Every other move is a random pick from :func:`legal_moves`,
and every move goes through :func:`validate`. After each move the simulator checks what
must always hold; at the end, the shape of the whole game, written here from DFM-R11..R14
independently of the engine's schedule.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from tabletop_rules.downtown_farmers_market import (
    INGREDIENTS,
    REVEAL_SIZE,
    ROUNDS,
    TOTAL_TILES,
    Action,
    Board,
    Challenge,
    DiscardTile,
    ExactCount,
    ExactCountAny,
    ExactTotal,
    FoodTile,
    Forbidden,
    GameState,
    Majority,
    Mode,
    Move,
    OneOfEach,
    PerSet,
    Player,
    RevealTiles,
    Setup,
    TakeTile,
    check_state,
    empty_grid,
    legal_moves,
    new_game,
    validate,
)

NAMES = ("Ana", "Ben", "Cy", "Dee")
FIRST_FACE_UP = {Mode.STANDARD: 5, Mode.YOUNG_SHOPPER: 3}

# One round's actions as (seat after the first player, action), straight from DFM-R11.
ROUND_PATTERN = {
    4: [(0, "take"), (1, "take"), (2, "take"), (3, "take")],
    3: [(0, "take"), (0, "discard"), (1, "take"), (2, "take")],
    2: [(0, "take"), (0, "discard"), (1, "take"), (1, "discard")],
}


@dataclass
class Game:
    """A finished game: its setup, its log, and the state before each move and at the end."""

    setup: Setup
    moves: list[Move]
    states: list[GameState]
    box: list[FoodTile]

    @property
    def final(self) -> GameState:
        return self.states[-1]


def random_tile(rng: random.Random) -> FoodTile:
    """1 to 3 ingredients from a narrow palette, so identical tiles turn up often."""
    return FoodTile(tuple(rng.choice(INGREDIENTS[:3]) for _ in range(rng.randint(1, 3))))


def random_challenge(rng: random.Random) -> Challenge:
    ingredient = rng.choice(INGREDIENTS)
    options: list[Challenge] = [
        Majority(ingredient, rng.randint(1, 9)),
        ExactCount(((ingredient, rng.randint(1, 4)),), rng.randint(1, 9)),
        ExactCountAny(rng.randint(1, 5), rng.randint(1, 9)),
        ExactTotal(rng.randint(4, 8), rng.randint(1, 12)),
        Forbidden((ingredient,), rng.randint(1, 9)),
        OneOfEach(rng.randint(1, 9)),
        PerSet(((ingredient,),), 1),
    ]
    return rng.choice(options)


def random_player(rng: random.Random, name: str, mode: Mode) -> Player:
    """A player with chosen challenges (none in Young Shopper) and an empty grid."""
    sides = 0 if mode is Mode.YOUNG_SHOPPER else 4
    return Player(name, Board(empty_grid(),
                              tuple(random_challenge(rng) for _ in range(sides)),
                              tuple(random_challenge(rng) for _ in range(sides)), mode))


def make_setup(mode: Mode, player_count: int, first_player: int = 0,
               face_up: tuple[FoodTile, ...] | None = None) -> Setup:
    """A setup for hand-written tests: named players, fixed challenges, plain tiles."""
    rng = random.Random(0)
    players = tuple(random_player(rng, name, mode) for name in NAMES[:player_count])
    if face_up is None:
        face_up = tuple(FoodTile((i,)) for i in INGREDIENTS[:FIRST_FACE_UP[mode]])
    return Setup(mode, players, first_player, face_up)


def play(state: GameState, *moves: Move) -> GameState:
    """``state`` after ``moves``, each of which must be legal."""
    for move in moves:
        verdict = validate(state, move)
        assert verdict.next_state is not None, (move, verdict.violations)
        state = verdict.next_state
    return state


def play_random_game(rng: random.Random, mode: Mode, player_count: int,
                     max_moves: int | None = None) -> Game:
    """Deal, then play through ``legal_moves`` and ``validate``, checking as it goes, to the
    end or until ``max_moves`` moves are made."""
    box = [random_tile(rng) for _ in range(TOTAL_TILES)]
    pile = list(box)
    dealt = FIRST_FACE_UP[mode]
    players = tuple(random_player(rng, name, mode) for name in NAMES[:player_count])
    setup = Setup(mode, players, rng.randrange(player_count), tuple(pile[:dealt]))
    del pile[:dealt]
    state = new_game(setup)
    game = Game(setup, [], [state], box)
    check_invariants(state, box, pile)
    while not state.game_over and len(game.moves) != max_moves:
        if state.expected is Action.REVEAL:
            move: Move = RevealTiles(tuple(pile[:REVEAL_SIZE[mode]]))
            del pile[:REVEAL_SIZE[mode]]
        else:
            choices = legal_moves(state)
            assert choices and len(set(choices)) == len(choices), choices
            move = rng.choice(choices)
        verdict = validate(state, move)
        assert verdict.legal and verdict.next_state is not None, (move, verdict.violations)
        check_step(state, move, verdict.next_state)
        state = verdict.next_state
        check_invariants(state, box, pile)
        game.moves.append(move)
        game.states.append(state)
    if state.game_over:
        check_game(game)
    return game


def check_invariants(state: GameState, box: list[FoodTile], pile: list[FoodTile]) -> None:
    """The state is one check_state accepts, and every tile of the box is somewhere."""
    assert check_state(state) == [], check_state(state)
    assert state.pile_count == len(pile)
    on_grids = [t for p in state.players for row in p.board.grid for t in row if t is not None]
    seen = Counter(on_grids + list(state.discards) + list(state.face_up) + pile)
    assert seen == Counter(box), "a tile was lost or made up"


def check_step(before: GameState, move: Move, after: GameState) -> None:
    """A take adds exactly its tile to the taker's grid and nothing ever moves (DFM-R12)."""
    for seat, (old, new) in enumerate(zip(before.players, after.players)):
        changed = [(r, c) for r in range(4) for c in range(4)
                   if old.board.grid[r][c] != new.board.grid[r][c]]
        if isinstance(move, TakeTile) and seat == move.player:
            assert changed == [(move.row, move.col)]
            assert old.board.grid[move.row][move.col] is None
        else:
            assert changed == []


def check_game(game: Game) -> None:
    """The whole game has the shape DFM-R11, R13 and R14 give it."""
    final, setup = game.final, game.setup
    n, mode = len(setup.players), setup.mode
    assert all(p.board.tile_count == 16 for p in final.players)
    assert final.round == ROUNDS
    reveals = [m for m in game.moves if isinstance(m, RevealTiles)]
    discards = [m for m in game.moves if isinstance(m, DiscardTile)]
    takes = [m for m in game.moves if isinstance(m, TakeTile)]
    assert len(takes) == 16 * n
    if mode is Mode.YOUNG_SHOPPER:
        assert len(reveals) == min(16 * n - 1, TOTAL_TILES - 3) and not discards
        assert [m.player for m in takes] == [(setup.first_player + i) % n for i in range(16 * n)]
        assert all(len(r.tiles) == 1 for r in reveals)
        return
    assert len(reveals) == ROUNDS - 1 and all(len(r.tiles) == 4 for r in reveals)
    assert len(discards) == {4: 0, 3: 16, 2: 32}[n]
    first = setup.first_player
    for actions in rounds(game.moves):
        pattern = [((first + offset) % n, action) for offset, action in ROUND_PATTERN[n]]
        assert actions == pattern, (actions, pattern)
        first = actions[-1][0]  # the last to act opens the next round


def rounds(moves: list[Move]) -> list[list[tuple[int, str]]]:
    """A standard game's log as rounds of (seat, action), split at the reveals."""
    found: list[list[tuple[int, str]]] = [[]]
    for move in moves:
        if isinstance(move, RevealTiles):
            found.append([])
        else:
            found[-1].append((move.player, "take" if isinstance(move, TakeTile) else "discard"))
    return found

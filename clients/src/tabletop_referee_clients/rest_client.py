"""A REST client speaking the public JSON contract, one namespace per game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from . import contract_types as types
from .errors import InvalidRequestError, RefereeError

Json = dict[str, Any]
Post = Callable[[str, Json], Any]
Get = Callable[[str], Any]
"""A call's JSON answer, typed by the method that asks (its return type, from
:mod:`.contract_types`)."""


class GameRest:
    """What every game's namespace shares (a new game's subclasses it): its calls go to
    ``/v1/<SLUG>``, with the client's retries and errors."""

    SLUG: ClassVar[str]

    def __init__(self, post: Post, get: Get) -> None:
        self._post_to = post
        self._get_from = get

    def _post(self, path: str, body: Json) -> Any:
        return self._post_to(f"/v1/{self.SLUG}{path}", body)

    def _get(self, path: str) -> Any:
        return self._get_from(f"/v1/{self.SLUG}{path}")


class DowntownFarmersMarketRest(GameRest):
    """``/v1/downtown-farmers-market``: bodies and answers are the contract's JSON."""

    SLUG = "downtown-farmers-market"

    def score_board(self, board: Json) -> types.DowntownScore:
        """Score one board (the contract's board JSON)."""
        return self._post("/score", board)

    def rank_players(self, players: list[Json]) -> types.DowntownRanking:
        """Rank ``[{"name": ..., "board": ...}, ...]``."""
        return self._post("/rank", {"players": players})

    def new_game(self, setup: Json) -> types.DowntownGameState:
        """Start a game: the state before the first take."""
        return self._post("/games", setup)

    def legal_moves(self, state: Json) -> list[types.DowntownMove]:
        """Every legal take or discard in ``state`` (none at a reveal or once it is over)."""
        return self._post("/legal-moves", {"state": state})["moves"]

    def validate_move(self, state: Json, move: Json) -> types.DowntownMoveVerdict:
        """Judge ``move`` in ``state``: ``legal`` and the next ``state``, or ``violations``."""
        return self._post("/moves/validate",
                          {"state": state, "move": move})

    def replay_game(self, setup: Json, moves: list[Json]) -> types.DowntownGameReplay:
        """Replay a game's log to its end or first illegal move, with the result if over."""
        return self._post("/games/replay",
                          {"setup": setup, "moves": moves})

    def challenge_types(self) -> types.DowntownChallengeTypes:
        """The seven Challenge types, their parameters and the values each accepts."""
        return self._get("/challenges")


class FoxgloveFarmRest(GameRest):
    """``/v1/foxglove-farm``: bodies and answers are the contract's JSON."""

    SLUG = "foxglove-farm"

    def score_town(self, town: Json) -> types.FoxgloveTownScore:
        """Score one town (the contract's town JSON)."""
        return self._post("/score", town)

    def rank_towns(self, players: list[Json]) -> types.FoxgloveTownRanking:
        """Rank ``[{"name": ..., "town": ...}, ...]``."""
        return self._post("/rank", {"players": players})

    def validate_transport(self, town: Json, move: Json) -> types.FoxgloveTransportVerdict:
        """Rule on moving goods in ``town``; an illegal move answers ``legal`` false."""
        return self._post("/transport/validate", {"town": town, "move": move})

    def plan_final_round(self, town: Json) -> types.FoxgloveFinalRoundPlan:
        """The best final total reachable from ``town``, and a plan reaching it."""
        return self._post("/final-round/plan", town)

    def new_game(self, setup: Json) -> types.FoxgloveGameState:
        """Start a game of four rounds: the state before the first production."""
        return self._post("/games", setup)

    def legal_moves(self, state: Json) -> types.FoxgloveLegalMoves:
        """The ``turn``, every legal action (``moves``) and the ``goods_on_hand`` in
        ``state``."""
        return self._post("/legal-moves", {"state": state})

    def validate_action(self, state: Json, action: Json) -> types.FoxgloveActionVerdict:
        """Judge ``action`` in ``state``: ``legal`` and the next ``state``, or ``violations``."""
        return self._post("/actions/validate", {"state": state, "action": action})

    def replay_game(self, setup: Json, actions: list[Json]) -> types.FoxgloveGameReplay:
        """Replay a game's log to its end or first illegal action, with the result if over."""
        return self._post("/games/replay", {"setup": setup, "actions": actions})

    def catalog(self) -> types.FoxgloveBuildingCatalog:
        """The built-in building catalog, with each value's provenance and its version."""
        return self._get("/catalog")


RETRIED_STATUSES = (429, 503)
"""Past the caller's rate limit, and no engine free: answers worth asking again, after the
``Retry-After`` the gateway sends with them."""


class RestClient:
    """Calls the gateway: ``client.downtown_farmers_market.score_board(board)``; answers
    are the contract's JSON, errors are :class:`RefereeError`. ``language`` (``"fr"``,
    an ``Accept-Language`` value) is the one explanations and problems are worded in;
    ``api_key`` is sent in ``X-API-Key``, where the gateway requires keys.

    A 429 or 503 answer is asked again up to ``retries`` times (POSTs too: every call is a
    pure function of its body), after the answer's ``Retry-After`` or else urllib3's
    exponential backoff from ``backoff`` seconds; the last such answer raises. A gateway
    that cannot be reached is not asked again."""

    def __init__(self, base_url: str = "http://127.0.0.1:8080", timeout: float = 10.0,
                 session: requests.Session | None = None, *,
                 language: str | None = None, api_key: str | None = None,
                 retries: int = 3, backoff: float = 0.5) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.session = session or requests.Session()
        if language:
            self.session.headers["Accept-Language"] = language
        if api_key:
            self.session.headers["X-API-Key"] = api_key
        # The API's calls only (ready() says at once whether the gateway is ready), over
        # HTTP: a transport of the session's own (the command line's --local) is its own.
        if isinstance(self.session.get_adapter(self.base_url), HTTPAdapter):
            self.session.mount(f"{self.base_url}/v1/", HTTPAdapter(max_retries=Retry(
                total=retries, connect=0, read=0, other=0, status_forcelist=RETRIED_STATUSES,
                allowed_methods=None, backoff_factor=backoff, raise_on_status=False)))
        self.downtown_farmers_market = DowntownFarmersMarketRest(self.post, self.get)
        self.foxglove_farm = FoxgloveFarmRest(self.post, self.get)

    def ready(self) -> bool:
        """True when the gateway reaches a serving engine."""
        return self.session.get(f"{self.base_url}/readyz", timeout=self.timeout).ok

    def version(self) -> types.Version:
        """The gateway's and engine's releases, and the rules and catalog versions score
        answers name."""
        return self.get("/v1/version")

    def post(self, path: str, body: Json) -> Any:
        """POST ``body`` as JSON to ``path``; the JSON answer, or the problem raised."""
        return _answer(self.session.post(f"{self.base_url}{path}", json=body,
                                          timeout=self.timeout))

    def get(self, path: str) -> Any:
        """GET ``path``; the JSON answer, or the problem raised."""
        return _answer(self.session.get(f"{self.base_url}{path}", timeout=self.timeout))

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> RestClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _answer(response: requests.Response) -> Any:
    if response.ok:
        return response.json()
    raise error_from_problem(response)


def error_from_problem(response: requests.Response) -> RefereeError:
    try:
        problem = response.json()
    except ValueError:
        return RefereeError(response.status_code, response.reason, response.text[:200])
    title, detail = problem.get("title", response.reason), problem.get("detail", "")
    if response.status_code == 422:
        errors = problem.get("errors", [])
        return InvalidRequestError(
            422, title, detail, [(e.get("pointer", ""), e.get("detail", "")) for e in errors],
            [(e.get("code", ""), e.get("params") or {}) for e in errors])
    return RefereeError(response.status_code, title, detail)

"""The project's flask-smorest Blueprint: strict body parsing and problem+json errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flask_smorest
import marshmallow as ma

from .parsing import ProblemParser

View = Callable[..., Any]

BODY_PROBLEMS = (400, 413, 415, 422, 503, 504)
"""What any endpoint that reads a JSON body and asks the engine may answer besides 200."""


class Blueprint(flask_smorest.Blueprint):
    """A flask-smorest blueprint whose bodies are read by :class:`ProblemParser`."""

    ARGUMENTS_PARSER = ProblemParser()

    def problem_responses(self, *statuses: int) -> Callable[[View], View]:
        """Document the problem+json answers an endpoint may give."""
        def decorate(view: View) -> View:
            for status in statuses:
                view = self.alt_response(status, response="Problem")(view)
            return view
        return decorate

    def json_post(self, rule: str, body: type[ma.Schema], answer: type[ma.Schema], *,
                  expensive: bool = False) -> Callable[[View], View]:
        """``POST rule``: the body read by ``body`` is the view's one argument, what it
        returns is written by ``answer``, and the problem answers are documented (429 too
        for an ``expensive`` one, whose calls the engine bounds in number)."""
        problems = (*BODY_PROBLEMS, 429) if expensive else BODY_PROBLEMS
        decorators = (self.post(rule), self.arguments(body, as_kwargs=False),
                      self.response(200, answer), self.problem_responses(*problems))

        def decorate(view: View) -> View:
            for decorator in reversed(decorators):
                view = decorator(view)
            return view
        return decorate

"""The project's flask-smorest Blueprint: strict body parsing and problem+json errors."""

from __future__ import annotations

import flask_smorest

from .parsing import ProblemParser


class Blueprint(flask_smorest.Blueprint):
    """A flask-smorest blueprint whose bodies are read by :class:`ProblemParser`."""

    ARGUMENTS_PARSER = ProblemParser()

    def problem_responses(self, *statuses: int):  # type: ignore[no-untyped-def]
        """Document the problem+json answers an endpoint may give."""
        def decorate(view):  # type: ignore[no-untyped-def]
            for status in statuses:
                view = self.alt_response(status, response="Problem")(view)
            return view
        return decorate

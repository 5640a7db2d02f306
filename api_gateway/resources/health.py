"""``/healthz`` (this process is alive) and ``/readyz`` (and the engine answers)."""

from __future__ import annotations

import marshmallow as ma
from flask.blueprints import BlueprintSetupState

from .. import engine
from ..blueprint import Blueprint
from ..fields import AnswerSchema

blueprint = Blueprint("health", __name__, description="Liveness and readiness probes.")


class HealthSchema(AnswerSchema):
    """What a probe answers when it passes."""

    status = ma.fields.String(required=True, metadata={"enum": ["ok", "ready"]})


@blueprint.get("/healthz")
@blueprint.doc(operationId="checkLiveness")
@blueprint.response(200, HealthSchema)
def healthz() -> dict[str, str]:
    """The gateway process is up."""
    return {"status": "ok"}


@blueprint.get("/readyz")
@blueprint.doc(operationId="checkReadiness")
@blueprint.response(200, HealthSchema)
@blueprint.problem_responses(503)
def readyz() -> dict[str, str]:
    """The gateway can reach a SERVING engine."""
    if not engine.engine_ready():
        raise engine.engine_unavailable()
    return {"status": "ready"}


@blueprint.record_once
def check_engine_settings(state: BlueprintSetupState) -> None:
    """A wrong engine setting (target, TLS files) stops the gateway as it starts, with a
    message naming it, instead of failing its requests later."""
    engine.Settings.from_config(state.app.config)

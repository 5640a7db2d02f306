"""The OpenAPI document, as the gateway's marshmallow schemas say it.

flask-smorest and apispec write the document from the schemas; this module adds what an
SDK generator needs to make one clean type per thing:

* a field whose ``metadata["component"]`` names a :class:`~api_gateway.fields.Component`
  (an enum, a Food tile, goods, a tagged union...) is written once, as that component,
  and every use refers to it, with only its own description, default and nullability
  beside the reference;
* a :class:`~api_gateway.fields.Tagged` field is a ``oneOf`` of its schemas with a
  discriminator; a dict keyed by an enum is an object with a property per name; a field
  that reads one of several shapes (a value or a doubtful reading of it) documents them
  itself, with an ``openapi_alternatives(converter)`` method;
* each schema's docstring is its description, and a schema's ``Meta.answered`` lists the
  fields every answer holds although a request may leave them out (the state a referee
  answers: a client sends it back as it came), which are ``required`` as well;
* a component one game alone has is named for it (``DowntownGameState``,
  ``FoxgloveGameState``): a schema by the package of its class (:func:`component_name`),
  an enum by its protobuf package, another component as its code names it;
* errors are :class:`ProblemSchema` (RFC 9457), one response component for every error.

The Swagger UI page (``/v1/docs``) loads Swagger UI from the gateway itself
(:func:`serve_swagger_ui`: the build of swagger-ui-dist that the flask-swagger-ui package
ships), so it works offline and requests nothing from another host.

The document states the forward-compatibility rule in its description: answers may gain
fields, and clients must ignore the ones they do not know.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import flask_swagger_ui
import marshmallow as ma
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin, resolver
from apispec.ext.marshmallow.common import resolve_schema_cls
from apispec.ext.marshmallow.openapi import OpenAPIConverter

from flask import Flask, Response, send_from_directory
from werkzeug.exceptions import NotFound

from .fields import AnswerSchema, Component, ProtoEnum, Tagged, game_named
from .problems import PROBLEM_CONTENT_TYPE
from .wording import ParamsField, code_table, templates_of

DESCRIPTION = """\
A stateless rules referee for tabletop games: Downtown Farmers Market and Foxglove Farm.
It scores boards and towns, ranks players, and rules on moves; the client holds every
state and sends it back with the next move.

**Errors** are RFC 9457 `application/problem+json` (`Problem`): 400 for a body that is not
JSON, 415 for another media type, 413 over the body limit, 422 with one JSON Pointer per
problem (`errors`), 429 and 503 with `Retry-After`, 504 past the engine's deadline. An
illegal move is not an error: it is a 200 answer whose `legal` is false.

**A transcription checked whole.** A board or town scored or ranked, or a town and a
transport, gets every problem in one 422: where the body's types or names are wrong, the
rest is still judged by the rules. A refused name from a list (an ingredient, a side, a
mode) stands in as unreadable where it stands, and a refused goods or counts entry or
unknown key is left out; the rules' problems at or under a refused place, or about an
object an entry was left out of, are not added (the 422 names each place once, and never
a problem only the stand-in causes). A refused value with no such stand-in (a position,
a wrong-typed tile or list, a missing field, a catalog), or an engine that cannot be
reached, leaves the body's shape problems alone in the 422. Problems come in the body's
order.

**Request ids.** Every answer carries an `X-Request-ID` header: the request's own when it
sent a valid one (1 to 64 letters, digits, `.`, `_` or `-`), else a new one; a problem
repeats it as `request_id`. Quote it when reporting a problem.

**API keys.** A referee configured with API keys needs one in the `X-API-Key` header on
every operation but the probes (401 without it), and limits each key's rate (429 with
`Retry-After` past it).

**Forward compatibility.** Answers may gain fields in any release of this version:
clients must ignore the fields they do not know. Requests keep their meaning: a field
added to a request is optional, and leaving it out keeps today's behaviour.

**Required fields.** An answer always holds the fields its schema lists as `required`. A
board, town, move or action is something a client writes: its `required` fields are the
ones a request must give, and a field with a `default` may be left out (answers always
write it). A game state is the referee's: send it back as it was answered.

**Limits.** Every number and list states the range the referee accepts (`minimum`,
`maximum`, `maxItems`...); past it the answer is a 422 naming the limit.
"""

PER_USE = ("description", "default", "readOnly", "writeOnly", "deprecated", "example",
           "examples", "title")
"""What a field's documentation says of that one use, beside a component's reference."""


class FieldErrorSchema(AnswerSchema):
    """One problem in the request: where, and what is wrong there."""

    pointer = ma.fields.String(required=True, metadata={
        "description": "RFC 6901 JSON Pointer into the request body, e.g. /grid/1/2/0 "
                       "(empty for the whole body)"})
    detail = ma.fields.String(required=True, metadata={
        "description": "what is wrong there, for people (in the Accept-Language's "
                       "language); a request's value is quoted cut to 60 characters"})
    code = ma.fields.String(required=True, metadata={
        "description": "the sentence, for machines: a stable name (ProblemCode)"})
    params = ParamsField()


class ProblemSchema(AnswerSchema):
    """An error, as RFC 9457 problem details."""

    type = ma.fields.String(required=True, metadata={
        "format": "uri", "description": "the kind of problem: a stable URI per kind"})
    title = ma.fields.String(required=True, metadata={
        "description": "the kind of problem, for people"})
    status = ma.fields.Integer(required=True, metadata={
        "description": "the HTTP status", "minimum": 400, "maximum": 599})
    detail = ma.fields.String(required=True, metadata={
        "description": "this occurrence, for people"})
    errors = ma.fields.List(ma.fields.Nested(FieldErrorSchema), metadata={
        "description": "one entry per problem in the request (the first 100, then one "
                       "saying how many more), when its places can be named"})
    request_id = ma.fields.String(required=True, metadata={
        "description": "the request's id, as in the X-Request-ID answer header: quote it "
                       "when reporting a problem"})


class Converter(OpenAPIConverter):
    """apispec's converter, with the project's components, tagged unions and schemas'
    descriptions and answered fields (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.components: dict[str, dict[str, Any]] = {}

    def init_attribute_functions(self) -> None:
        super().init_attribute_functions()
        self.attribute_functions.insert(-1, self.tagged2properties)  # before nullable
        self.attribute_functions.insert(-1, self.enum_keys2properties)
        self.attribute_functions.append(self.const2properties)
        self.attribute_functions.append(self.alternatives2properties)  # after nullable

    def const2properties(self, field: ma.fields.Field[Any], ret: dict[str, Any],
                         **kwargs: Any) -> dict[str, Any]:
        """A field with one value (a tagged object's tag): ``const``, not a one-value enum
        (which generators make into an enum type per tag)."""
        if "const" not in field.metadata:
            return {}
        ret.pop("enum", None)
        return {"const": field.metadata["const"]}

    def alternatives2properties(self, field: ma.fields.Field[Any], **kwargs: Any
                                ) -> dict[str, Any]:
        """A field that reads one of several shapes: the ``oneOf`` its
        ``openapi_alternatives(converter)`` method documents."""
        document = getattr(field, "openapi_alternatives", None)
        return {} if document is None else document(self)

    def tagged2properties(self, field: ma.fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
        """A :class:`Tagged` field: a ``oneOf`` of its schemas, with a discriminator."""
        if not isinstance(field, Tagged):
            return {}
        refs = {kind: self.resolve_nested_schema(schema)
                for kind, schema in field.schemas.items()}
        return {"oneOf": list(refs.values()),
                "discriminator": {"propertyName": field.tag,
                                  "mapping": {kind: ref["$ref"] for kind, ref in refs.items()}}}

    def enum_keys2properties(self, field: ma.fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
        """A dict keyed by an enum (goods by type, counts by ingredient): an object with
        one optional property per name, so a generated client has a field for each."""
        if not isinstance(field, ma.fields.Dict):
            return {}
        keys = field.key_field
        if not isinstance(keys, ProtoEnum) or field.value_field is None:
            return {}
        value = self.field2property(field.value_field)
        return {"properties": {name: value for name in keys.by_name},
                "additionalProperties": False}

    def field2property(self, field: ma.fields.Field[Any]) -> dict[str, Any]:
        component = field.metadata.get("component")
        if not isinstance(component, Component):
            return super().field2property(field)
        whole = super().field2property(field)
        body = {key: value for key, value in whole.items() if key not in PER_USE}
        if field.allow_none and isinstance(body.get("type"), list):
            body["type"] = [kind for kind in body["type"] if kind != "null"]
            if len(body["type"]) == 1:
                body["type"] = body["type"][0]
        ref = {"$ref": self._component(component, body)}
        usage = {key: value for key, value in whole.items() if key in PER_USE}
        if field.allow_none:
            return {"anyOf": [ref, {"type": "null"}], **usage}
        return {**ref, **usage}

    def _component(self, component: Component, body: dict[str, Any]) -> str:
        """The reference to ``component``, registered with ``body`` on its first use."""
        body = {"description": component.description, **body}
        known = self.components.get(component.name)
        if known is None:
            self.components[component.name] = body
            self.spec.components.schema(component.name, component=body)
        elif known != body:
            raise ValueError(f"component {component.name} is documented two ways:\n"
                             f"{known}\n{body}")
        return f"#/components/schemas/{component.name}"

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        jsonschema: dict[str, Any] = super().schema2jsonschema(schema)
        cls = schema if isinstance(schema, type) else type(schema)
        doc = vars(cls).get("__doc__")
        if doc and "description" not in jsonschema:
            jsonschema = {"description": inspect.cleandoc(doc), **jsonschema}
        if issubclass(cls, AnswerSchema):  # answers may gain fields
            jsonschema.pop("additionalProperties", None)
        answered = getattr(getattr(cls, "Meta", None), "answered", ())
        if answered:
            required = set(jsonschema.get("required", ())) | set(answered)
            unknown = required - set(jsonschema["properties"])
            if unknown:
                raise ValueError(f"{cls.__name__}.Meta.answered names no field: {unknown}")
            jsonschema["required"] = sorted(required)
        return jsonschema


def component_name(schema: Any) -> str:
    """A schema's component: its class's name without ``Schema``, begun with its game's
    name where the class is a game's (:func:`~api_gateway.fields.game_named`)."""
    resolved = resolve_schema_cls(schema)
    cls = resolved[0] if isinstance(resolved, list) else resolved
    return game_named(resolver(schema), cls.__module__)


class Plugin(MarshmallowPlugin):
    Converter = Converter

    def __init__(self) -> None:
        super().__init__(schema_name_resolver=component_name)


def problem_response(spec: APISpec) -> dict[str, Any]:
    """The one response every error is documented with: problem+json, :class:`ProblemSchema`."""
    spec.components.schema("FieldError", schema=FieldErrorSchema)
    problems = templates_of("problem")  # all declared by now: the app is built
    spec.components.schema("ProblemCode", component={
        "type": "string", "enum": sorted({made.code for made in problems}),
        "description": "What a 422 detail says, for machines, worded with its `params`; "
                       "game-specific codes start `DFM_` or `FF_` (a param naming a "
                       "fragment, such as `what`, holds the fragment's key, "
                       "`FF_NOUN_TOWN_OBJECT`; `got` a JSON type). Every check of the rules "
                       "and the engine has its code; INVALID_VALUE is only for words of the "
                       "JSON library no code names (`params.message`), should the gateway "
                       f"meet one.\n\n{code_table(problems)}\n\nThe fragments such a "
                       "param may name:\n\n"
                       f"{code_table(templates_of('part', prefix='FF_NOUN_'))}"})
    field_error = spec.components.schemas["FieldError"]
    field_error["properties"]["code"] = {
        "$ref": "#/components/schemas/ProblemCode",
        "description": field_error["properties"]["code"]["description"]}
    spec.components.schema("Problem", schema=ProblemSchema)
    return {"description": "An error, as RFC 9457 problem details",
            "content": {PROBLEM_CONTENT_TYPE: {
                "schema": {"$ref": "#/components/schemas/Problem"}}}}


SWAGGER_UI = Path(flask_swagger_ui.__file__).with_name("dist")
"""Swagger UI's build as flask-swagger-ui ships it (swagger-ui-dist, OpenAPI 3.1 ready)."""
SWAGGER_UI_ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js",
                               "swagger-ui-standalone-preset.js", "favicon-16x16.png",
                               "favicon-32x32.png"})
"""What the documentation page loads from the build; nothing else of it is served."""
ASSET_MAX_AGE = 300


def swagger_ui_rule(config: Any) -> str | None:
    """The rule serving Swagger UI's files when ``OPENAPI_SWAGGER_UI_URL`` is a path of
    this gateway (the default); None when the configuration points it elsewhere."""
    url = config["OPENAPI_SWAGGER_UI_URL"]
    return None if urlsplit(url).netloc else f"{url.rstrip('/')}/<path:name>"


def serve_swagger_ui(app: Flask) -> None:
    """Serve Swagger UI's files (:data:`SWAGGER_UI_ASSETS`) at the configured path."""
    rule = swagger_ui_rule(app.config)
    if rule is None:
        return

    def swagger_ui_asset(name: str) -> Response:
        if name not in SWAGGER_UI_ASSETS:
            raise NotFound()
        return send_from_directory(SWAGGER_UI, name, max_age=ASSET_MAX_AGE)

    app.add_url_rule(rule, endpoint="swagger_ui_asset", view_func=swagger_ui_asset)

"""marshmallow fields the contract needs beyond the stock ones.

* :class:`ProtoEnum`: the contract's lower-case names (``"young_shopper"``) for a protobuf
  enum's values (``MODE_YOUNG_SHOPPER``), derived from the enum itself so the names have
  one source.
* :class:`Tagged`: a JSON object whose ``type`` (or other tag) picks which schema reads it
  (the seven challenge types, the three moves), documented in OpenAPI as a ``oneOf`` with
  a discriminator; dumping, the protobuf ``oneof`` that is set picks the schema.
* :func:`tag`: a tagged object's tag, documented as its one value.
* :func:`set_fields` and :class:`SetFieldsSchema`: a message's set fields, for answers
  that leave out what is unset.
* :class:`PresentNested`: an optional part of a protobuf answer, written only when set.
* :class:`Component`: a field documented once, as a named OpenAPI component that every
  use refers to (an enum, a Food tile, goods, a tagged union), so generated clients get one
  type for it (:mod:`api_gateway.openapi` writes it); :func:`game_named` begins the name
  of one game's own component with the game's name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict

import marshmallow as ma
from google.protobuf.descriptor import EnumDescriptor
from google.protobuf.message import Message

from tabletop_rules.messages import template
from tabletop_rules.names import Names
from tabletop_rules.json_reading import EXPECTED_OBJECT
from tabletop_rules.problems import give_the, not_one_of, not_one_of_like, quoted, shortened

from .compiled import (
    Compiler,
    Dump,
    Loader,
    Refused,
    oneof_dumper,
    table_dumper,
    table_loader,
)

INT32_MAX = 2**31 - 1
INT32_MIN = -(2**31)


@dataclass(frozen=True)
class Component:
    """A field's type as a named OpenAPI component (``#/components/schemas/<name>``):
    put in a field's ``metadata["component"]``, the field is documented as a reference to
    it, with only what is particular to that use beside it (its description, default,
    nullability)."""

    name: str
    description: str


GAME_PREFIXES = {"downtown_farmers_market": "Downtown", "foxglove_farm": "Foxglove"}
"""How the names of a game's own components begin, by the game's package (the gateway's
``resources/<game>``, the wire's ``referee.<game>.v1``): generated clients get
``DowntownGameState`` and ``FoxgloveGameState``, never one game's plain ``GameState``."""


def game_named(name: str, origin: str) -> str:
    """``name`` as a component of the game whose package ``origin`` (a module's or a
    protobuf type's dotted name) is in: begun with the game's prefix unless it is already;
    unchanged where ``origin`` is no game's."""
    packages = origin.split(".")
    prefix = next((prefix for package, prefix in GAME_PREFIXES.items()
                   if package in packages), "")
    return name if name.startswith(prefix) else prefix + name


class Limits(TypedDict):
    """A whole number's documented range, as :func:`limits` gives it."""

    minimum: int
    maximum: int


def limits(minimum: int, maximum: int) -> Limits:
    """A whole number's documented range: the one the rules accept, where it is narrower
    than what the field itself checks (the wire's int32); past it the rules answer a 422
    naming the limit. For a field's ``metadata``."""
    return {"minimum": minimum, "maximum": maximum}


def whole_number(minimum: int = 0, maximum: int = INT32_MAX, *,
                 accepted: tuple[int, int] | None = None, **kwargs: Any) -> ma.fields.Integer:
    """A strict JSON integer (no strings, floats or booleans) that fits the wire's int32;
    ``accepted`` is the range the rules accept, documented (:func:`limits`)."""
    if accepted is not None:
        kwargs["metadata"] = {**limits(*accepted), **kwargs.get("metadata", {})}
    return ma.fields.Integer(strict=True, validate=WholeNumberRange(minimum, maximum), **kwargs)


OUT_OF_RANGE = template("OUT_OF_RANGE", "expected a whole number from {min} to {max}")


class WholeNumberRange(ma.validate.Range):
    """marshmallow's Range, its error a Sentence (code OUT_OF_RANGE, params min, max)."""

    def __init__(self, minimum: int, maximum: int) -> None:
        super().__init__(minimum, maximum)

    def _format_error(self, value: Any, message: str) -> str:
        return OUT_OF_RANGE(min=self.min, max=self.max)


class _Unreadable:
    """The type of :data:`UNREADABLE`."""

    def __repr__(self) -> str:
        return "UNREADABLE"


UNREADABLE: Any = _Unreadable()
"""What stands in for a refused enum value when the rest of a refused body is checked
(:mod:`api_gateway.standins`): no JSON reads as it, and :class:`ProtoEnum` reads it as
the enum's unset value, which the engine names as unreadable where it stands."""


class ProtoEnumType(Protocol):
    """A generated protobuf enum (``board_pb2.Mode``), as far as :class:`ProtoEnum` reads
    it: its descriptor and its values by name. (The generated stubs type it as a class,
    which is no ``EnumTypeWrapper`` to mypy.)"""

    @property
    def DESCRIPTOR(self) -> EnumDescriptor: ...

    def items(self) -> Sequence[tuple[str, int]]: ...


class ProtoEnum(ma.fields.Field[int]):
    """A protobuf enum value, named in JSON by its lower-case name without the prefix
    (``upper_case`` keeps the case, for names such as the sides N, E, S, W).

    With ``spellings`` (words a player types: ingredients, goods), any spelling of a name
    they find is read as it (``"Egg"``, ``"eggs"``, ``"œuf"``), and a near miss is told
    the nearest. The compiled reader takes the contract's names only: another spelling is
    refused there and read here, so both read alike.

    Documented as the component ``component`` (by default the enum's own name), which
    ``about`` describes: one enum type in generated clients, however many fields use it.
    """

    def __init__(self, enum: ProtoEnumType, noun: str, *, upper_case: bool = False,
                 component: str | None = None, about: str | None = None,
                 spellings: Names | None = None, **kwargs: Any) -> None:
        self.prefix = f"{_upper_snake(enum.DESCRIPTOR.name)}_"
        names = {name.removeprefix(self.prefix): number for name, number in enum.items()
                 if number != 0}
        self.by_name = names if upper_case else {n.lower(): v for n, v in names.items()}
        self.by_number = {number: name for name, number in self.by_name.items()}
        self.noun = noun
        self.spellings = spellings
        self.not_one_of = not_one_of(noun)
        self.not_one_of_like = None if spellings is None else not_one_of_like(noun)
        documented = Component(component or game_named(enum.DESCRIPTOR.name,
                                                        enum.DESCRIPTOR.full_name),
                               about or f"{noun[0].upper()}{noun[1:]}.")
        super().__init__(metadata={"enum": list(self.by_name), "type": "string",
                                   "component": documented, **kwargs.pop("metadata", {})},
                         **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> int:
        if not isinstance(value, str) or value not in self.by_name:
            if value is UNREADABLE:
                return 0
            if isinstance(value, str) and self.spellings is not None:
                return self._named(value)
            shown = quoted(value) if isinstance(value, str) else shortened(json.dumps(value))
            raise ma.ValidationError(self.not_one_of(value=shown,
                                                     expected=tuple(self.by_name)))
        return self.by_name[value]

    def named(self, value: str) -> str | None:
        """The contract's name ``value`` spells (itself, or as a person writes it with
        ``spellings``), or None."""
        if value in self.by_name:
            return value
        named = None if self.spellings is None else self.spellings.find(value)
        return named if named in self.by_name else None

    def _named(self, value: str) -> int:
        """The value ``value`` spells as a person writes it, or why there is none."""
        assert self.spellings is not None and self.not_one_of_like is not None
        named = self.named(value)
        if named is not None:
            return self.by_name[named]
        expected, like = tuple(self.by_name), self.spellings.nearest(value)
        raise ma.ValidationError(
            self.not_one_of_like(value=quoted(value), like=like, expected=expected) if like
            else self.not_one_of(value=quoted(value), expected=expected))

    def _serialize(self, value: int | None, attr: str | None, obj: Any,
                   **kwargs: Any) -> str | None:
        return self.by_number.get(value) if value is not None else None

    def compiled_load(self, compiler: Compiler) -> Loader:
        return table_loader(self.by_name)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return table_dumper(self.by_number)


NAMED_AGAIN = template("NAMED_AGAIN", "{value} is {name:term} again; give each only once")


class NamedKeys(ma.fields.Dict):
    """An object keyed by names a person writes (a :class:`ProtoEnum` with spellings:
    goods, ingredients): two keys naming one thing (``"Wood"`` and ``"wood"``) would
    keep one count silently, so each key after the first is refused. The compiled reader
    reads only the contract's names, which a JSON object cannot repeat."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> Any:
        keys = self.key_field
        if isinstance(value, Mapping) and isinstance(keys, ProtoEnum):
            seen: set[str] = set()
            again = {}
            for key in value:
                named = keys.named(key) if isinstance(key, str) else None
                if named in seen:
                    again[key] = {"key": [NAMED_AGAIN(value=quoted(key), name=named)]}
                elif named is not None:
                    seen.add(named)
            if again:
                raise ma.ValidationError(again)
        return super()._deserialize(value, attr, data, **kwargs)  # type: ignore[no-untyped-call]


def _upper_snake(camel: str) -> str:
    return "".join(f"_{c}" if c.isupper() and i else c for i, c in enumerate(camel)).upper()


class Tagged(ma.fields.Field[Message]):
    """An object read by the schema its ``tag`` names; errors keep their nesting.

    Dumping a protobuf message, the field set in its ``oneof`` names the schema, so the
    schemas are keyed by the oneof's field names. Documented as ``component``: a
    ``oneOf`` of the schemas with a discriminator.
    """

    def __init__(self, schemas: Mapping[str, type[ma.Schema]], noun: str, *,
                 component: Component, tag: str = "type", oneof: str = "kind",
                 **kwargs: Any) -> None:
        self.schemas = dict(schemas)
        # One instance per kind, made once: building a marshmallow schema deep-copies its
        # fields, which cost a fifth of a /score call when done for every challenge.
        self.instances = {kind: schema() for kind, schema in self.schemas.items()}
        self.noun = noun
        self.not_one_of, self.give_the = not_one_of(noun), give_the(noun)
        self.tag = tag
        self.oneof = oneof
        super().__init__(metadata={"component": component, **kwargs.pop("metadata", {})},
                         **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> Any:
        if not isinstance(value, Mapping):
            raise ma.ValidationError(EXPECTED_OBJECT())
        kind = value.get(self.tag)
        if not isinstance(kind, str) or kind not in self.schemas:
            choices = tuple(self.schemas)
            message = (self.not_one_of(value=quoted(kind), expected=choices)
                       if isinstance(kind, str) else self.give_the(expected=choices))
            raise ma.ValidationError({self.tag: [message]})
        return self.instances[kind].load(value)  # its ValidationError nests under this field

    def _serialize(self, value: Message | None, attr: str | None, obj: Any,
                   **kwargs: Any) -> Any:
        if value is None:
            return None
        return self.instances[value.WhichOneof(self.oneof)].dump(value)

    def compiled_load(self, compiler: Compiler) -> Loader:
        members = {kind: compiler.schema_loader(schema) for kind, schema in self.instances.items()}
        loads = {kind: member.load for kind, member in members.items()}
        depths = [member.depth for member in members.values()]
        deepest = None if None in depths else max((d for d in depths if d is not None), default=1)
        tag = self.tag

        def load(value: Any) -> Any:
            if type(value) is not dict:
                raise Refused
            kind = value.get(tag)
            member = loads.get(kind) if type(kind) is str else None
            if member is None:
                raise Refused
            return member(value)
        return Loader(load, deepest, dispatch=(tag, loads))

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return oneof_dumper(self.oneof, {kind: compiler.schema_dumper(schema)
                                         for kind, schema in self.instances.items()})


class PresentNested(ma.fields.Nested):
    """A part of a protobuf answer written only when the answer sets it, so an answer
    that gains an optional part is written as before wherever the part is absent."""

    def get_value(self, obj: Any, attr: str, accessor: Any = None,
                  default: Any = ma.missing) -> Any:
        if isinstance(obj, Message) and not obj.HasField(attr):
            return ma.missing
        return super().get_value(obj, attr, accessor, default)


def set_fields(message: Message) -> dict[str, Any]:
    """``message``'s set fields by name (proto3: those not at their default), for a schema
    to dump as a dict: what is unset is left out of the answer unless the field has a
    ``dump_default``."""
    return {field.name: value for field, value in message.ListFields()}


def tag(kind: str, description: str) -> ma.fields.String:
    """A tagged object's tag: documented as the one value ``kind``, so each member of the
    ``oneOf`` matches only its own objects (two challenge types have the same fields).
    :class:`Tagged` has already checked the value when the schema reads it."""
    return ma.fields.String(required=True, metadata={"description": description,
                                                     "const": kind})


class AnswerSchema(ma.Schema):
    """A schema that only writes answers. Answers may gain fields (clients ignore those
    they do not know), so its OpenAPI schema does not forbid other properties; and each
    field every answer holds is ``required``."""


class SetFieldsSchema(AnswerSchema):
    """Dumps a protobuf answer leaving out what is unset (a state that is not there)."""

    @ma.pre_dump
    def from_proto(self, message: Message, **kwargs: Any) -> dict[str, Any]:
        return set_fields(message)

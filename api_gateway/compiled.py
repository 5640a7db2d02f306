"""marshmallow schemas compiled into plain functions: the gateway's fast path.

marshmallow stays the one source of the contract's JSON: which fields a body may hold and
of what types, how it becomes a protobuf request (each schema's own ``post_load`` hooks
build it), how an answer is written (its ``pre_dump`` hooks and fields), and what the
OpenAPI document says. But marshmallow pays for its generality on every field of every
request: a value is fetched, checked for missing and null, deserialised, validated and
post-processed through several layers of calls, with errors collected along the way
under their paths. A well-formed body needs none of that bookkeeping, so each schema is
compiled once into nested closures that take the same steps in the same order with the
same hooks, for the values that are unambiguously right:

* reading, a compiled schema accepts only what marshmallow accepts, and builds what it
  builds; at the first doubt (a value of a type marshmallow would convert or refuse, a
  number out of range, a hook that raises) it raises :class:`Refused`, and the caller
  reads the body with marshmallow itself, whose errors say exactly what is wrong;
* writing, a compiled schema writes what ``schema.dump`` writes; what it cannot vouch
  for as plain JSON (a float, say, which two JSON encoders may spell differently) is
  :class:`Refused` too, and the caller writes the answer with marshmallow.

Stock fields (String, Integer, Boolean, List, Dict, Nested) are compiled here; a field
class of the project's compiles itself with ``compiled_load(compiler)`` and
``compiled_dump(compiler)`` methods defined in its own class body (a subclass that
overrides ``_deserialize`` does not inherit them). Any other field is left to marshmallow
at the schema that holds it (``field.deserialize`` / ``field.serialize``), so a compiled
schema reads and writes exactly as marshmallow does, only faster; the equivalence is
tested on recorded and random bodies and answers (``tests/platform/test_compiled.py``).

Reading, each compiled loader also knows how deep the JSON it accepts can nest, so a
caller can skip the request's nesting check for bodies that no compiled loader could
accept past the limit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import marshmallow as ma
from google.protobuf.message import Message
from marshmallow.decorators import (
    POST_DUMP,
    POST_LOAD,
    PRE_DUMP,
    PRE_LOAD,
    VALIDATES,
    VALIDATES_SCHEMA,
)
from marshmallow.utils import get_value

MISSING = ma.missing

PLAIN_INTEGER = 2**63
"""Integers written as plain JSON by the fast writer are below this in magnitude."""


class Refused(Exception):
    """A value the compiled code does not vouch for: marshmallow reads or writes it."""


class Unsupported(Exception):
    """A schema or field the compiler does not reproduce: marshmallow handles it."""


def refuse() -> NoReturn:
    raise Refused


Load = Callable[[Any], Any]
"""A present value (neither missing nor null unless the field allows null) -> the value
marshmallow loads from it, or :class:`Refused`."""

Dump = Callable[[Any], Any]
"""A value -> what the field's ``_serialize`` writes for it."""


@dataclass(frozen=True)
class Loader:
    """A compiled reader and the deepest nesting of JSON arrays and objects it accepts,
    counting its own (``None``: any depth)."""

    load: Load
    depth: int | None


def deeper(depth: int | None, by: int = 1) -> int | None:
    return None if depth is None else depth + by


def _own(field: ma.fields.Field, name: str) -> Any:
    """A compile method defined by ``field``'s own class, not inherited."""
    return type(field).__dict__.get(name)


def _overrides(field: ma.fields.Field, *names: str) -> bool:
    """Whether ``field``'s class replaces any of the base Field's ``names``."""
    return any(getattr(type(field), n) is not getattr(ma.fields.Field, n) for n in names)


def _hooks(schema: ma.Schema, tag: str, collection_first: bool
           ) -> list[tuple[Callable[..., Any], bool]]:
    """The schema's ``tag`` hooks, bound, with their ``pass_original``, in the order
    marshmallow runs them for one object (loading: the collection hooks first)."""
    hooks = schema._hooks[tag]
    ordered = ([h for h in hooks if h[1]] + [h for h in hooks if not h[1]]) if collection_first \
        else ([h for h in hooks if not h[1]] + [h for h in hooks if h[1]])
    return [(getattr(schema, name), bool(kwargs.get("pass_original"))) for name, _, kwargs
            in ordered]


class Compiler:
    """Compiles schemas and fields, each once (by identity)."""

    def __init__(self) -> None:
        self._loaders: dict[tuple[int, str], Loader] = {}
        self._dumpers: dict[int, Dump] = {}
        self._open: set[int] = set()
        self._keep: list[Any] = []  # what the identities above name stays alive

    # Reading ----------------------------------------------------------------------------

    def schema_loader(self, schema: ma.Schema, unknown: str | None = None) -> Loader:
        """``schema.load(data, unknown=unknown)`` for one object."""
        unknown = schema.unknown if unknown is None else unknown
        key = (id(schema), unknown)
        cached = self._loaders.get(key)
        if cached is not None:
            return cached
        if id(schema) in self._open:
            raise Unsupported(f"{type(schema).__name__} nests itself")
        self._open.add(id(schema))
        try:
            loader = self._schema_loader(schema, unknown)
        finally:
            self._open.discard(id(schema))
        self._loaders[key] = loader
        self._keep.append(schema)
        return loader

    def _schema_loader(self, schema: ma.Schema, unknown: str) -> Loader:
        if schema.many or schema.partial or schema._hooks[VALIDATES]:
            raise Unsupported(f"{type(schema).__name__}: many, partial or field validators")
        pre = _hooks(schema, PRE_LOAD, collection_first=True)
        checks = _hooks(schema, VALIDATES_SCHEMA, collection_first=True)
        post = _hooks(schema, POST_LOAD, collection_first=True)
        steps: list[tuple[str, str, Load | None, ma.fields.Field]] = []
        depth: int | None = 1
        for attr_name, field in schema.load_fields.items():
            data_key = field.data_key if field.data_key is not None else attr_name
            target = field.attribute or attr_name
            if "." in target:
                raise Unsupported(f"{type(schema).__name__}.{attr_name}: a dotted attribute")
            try:
                loader: Loader | None = self.field_loader(field)
            except Unsupported:
                loader = None
            steps.append((data_key, target, loader.load if loader else None, field))
            field_depth = loader.depth if loader else None
            depth = None if depth is None or field_depth is None else max(depth, 1 + field_depth)
        known = frozenset(data_key for data_key, _, _, _ in steps)
        fields = tuple((data_key, target, load, field.required, field.load_default, field)
                       for data_key, target, load, field in steps)
        kwargs = {"many": False, "partial": None, "unknown": unknown}

        def load(value: Any) -> Any:
            if type(value) is not dict:
                raise Refused
            data = value
            for hook, pass_original in pre:
                data = hook(data, value, **kwargs) if pass_original else hook(data, **kwargs)
                if type(data) is not dict:
                    raise Refused
            out: dict[str, Any] = {}
            for data_key, target, field_load, required, default, field in fields:
                raw = data.get(data_key, MISSING)
                if field_load is None:  # marshmallow's own field, missing values too
                    loaded = field.deserialize(raw, data_key, data)
                    if loaded is not MISSING:
                        out[target] = loaded
                elif raw is not MISSING:
                    out[target] = field_load(raw)
                elif required:
                    raise Refused
                elif default is not MISSING:
                    out[target] = default() if callable(default) else default
            if not known.issuperset(data):
                if unknown == ma.RAISE:
                    raise Refused
                if unknown == ma.INCLUDE:
                    for name in data:
                        if name not in known:
                            out[name] = data[name]
            for check, pass_original in checks:
                if pass_original:
                    check(out, value, **kwargs)
                else:
                    check(out, **kwargs)
            result: Any = out
            for hook, pass_original in post:
                result = hook(result, value, **kwargs) if pass_original else hook(result, **kwargs)
            return result
        return Loader(load, depth)

    def field_loader(self, field: ma.fields.Field) -> Loader:
        """``field.deserialize(value)`` for a value that is present: null where the field
        allows it, else the field's own reading, then its validators."""
        if field.pre_load or field.post_load or _overrides(field, "deserialize",
                                                             "_validate_missing", "_validate"):
            raise Unsupported(f"{type(field).__name__}: its own deserialize steps")
        core = self.deserializer(field)
        load = self._validated(field, core.load)
        if field.allow_none:
            inner = load

            def load(value: Any) -> Any:
                return None if value is None else inner(value)
        return Loader(load, core.depth)

    def deserializer(self, field: ma.fields.Field, as_class: type | None = None) -> Loader:
        """``field._deserialize`` (of ``as_class``, a stock class the field extends, when
        given) for a value that is not null: it must refuse null itself."""
        own = _own(field, "compiled_load") if as_class is None else None
        if own is not None:
            loader: Loader = own(field, self)
            return loader
        kind = as_class or type(field)
        if kind is ma.fields.String:
            return Loader(_load_string, 0)
        if kind is ma.fields.Integer and not field.as_string:  # type: ignore[attr-defined]
            return Loader(_load_integer, 0)
        if kind is ma.fields.Boolean:
            return Loader(_boolean_loader(field), 0)  # type: ignore[arg-type]
        if kind is ma.fields.List:
            return self._list_loader(field)  # type: ignore[arg-type]
        if kind is ma.fields.Dict:
            return self._dict_loader(field)  # type: ignore[arg-type]
        if kind is ma.fields.Nested:
            return self._nested_loader(field)  # type: ignore[arg-type]
        raise Unsupported(f"{kind.__name__} is left to marshmallow")

    def _validated(self, field: ma.fields.Field, load: Load) -> Load:
        """``load`` followed by the field's validators (a whole-number range inline)."""
        validators = list(field.validators)
        if not validators:
            return load
        if (load is _load_integer and len(validators) == 1
                and type(validators[0]) is ma.validate.Range):
            check = validators[0]
            low, high = check.min, check.max
            if (check.min_inclusive and check.max_inclusive and isinstance(low, int)
                    and isinstance(high, int)):
                def load_in_range(value: Any) -> Any:
                    if type(value) is int and low <= value <= high:
                        return value
                    raise Refused
                return load_in_range
        validate = ma.validate.And(*validators)

        def load_validated(value: Any) -> Any:
            output = load(value)
            validate(output)
            return output
        return load_validated

    def _list_loader(self, field: ma.fields.List) -> Loader:
        item = self.field_loader(field.inner)
        item_load = item.load

        if item_load is _load_string:
            def load(value: Any) -> Any:
                if type(value) is not list or any(type(each) is not str for each in value):
                    raise Refused
                return list(value)
        else:
            def load(value: Any) -> Any:
                if type(value) is not list:
                    raise Refused
                return [item_load(each) for each in value]
        return Loader(load, deeper(item.depth))

    def _dict_loader(self, field: ma.fields.Dict) -> Loader:
        if field.key_field is None and field.value_field is None:
            return Loader(_load_mapping, None)
        keys = self.field_loader(field.key_field).load if field.key_field else None
        values = self.field_loader(field.value_field) if field.value_field else None
        value_load = values.load if values else None

        def load(value: Any) -> Any:
            if type(value) is not dict:
                raise Refused
            if keys is None:
                return {k: value_load(v) for k, v in value.items()}  # type: ignore[misc]
            new_keys = {k: keys(k) for k in value}  # every key first, as marshmallow
            if value_load is None:
                return {new_keys[k]: v for k, v in value.items()}
            return {new_keys[k]: value_load(v) for k, v in value.items()}
        return Loader(load, deeper(values.depth) if values else None)

    def _nested_loader(self, field: ma.fields.Nested) -> Loader:
        schema = field.schema
        if schema.many or field.many:
            raise Unsupported("a Nested field of many")
        return self.schema_loader(schema, field.unknown)

    # Writing ----------------------------------------------------------------------------

    def schema_dumper(self, schema: ma.Schema) -> Dump:
        """``schema.dump(obj)`` for one object."""
        cached = self._dumpers.get(id(schema))
        if cached is not None:
            return cached
        if id(schema) in self._open:
            raise Unsupported(f"{type(schema).__name__} nests itself")
        self._open.add(id(schema))
        try:
            dump = self._schema_dumper(schema)
        finally:
            self._open.discard(id(schema))
        self._dumpers[id(schema)] = dump
        self._keep.append(schema)
        return dump

    def _schema_dumper(self, schema: ma.Schema) -> Dump:
        if schema.many:
            raise Unsupported(f"{type(schema).__name__}: many")
        pre = _hooks(schema, PRE_DUMP, collection_first=False)
        post = _hooks(schema, POST_DUMP, collection_first=False)
        accessor = schema.get_attribute
        custom = type(schema).get_attribute is not ma.Schema.get_attribute
        steps = []
        for attr_name, field in schema.dump_fields.items():
            data_key = field.data_key if field.data_key is not None else attr_name
            name = field.attribute or attr_name
            try:
                if (not field._CHECK_ATTRIBUTE or "." in name
                        or _overrides(field, "serialize", "get_value")):
                    raise Unsupported("the field's own serialize")
                serialize: Dump | None = self.serializer(field)
            except Unsupported:
                serialize = None
            steps.append((data_key, attr_name, name, serialize, field.dump_default, field))
        fields = tuple(steps)

        def dump(obj: Any) -> Any:
            original = obj
            for hook, pass_original in pre:
                obj = hook(obj, original, many=False) if pass_original else hook(obj, many=False)
            out: dict[str, Any] = {}
            is_dict = type(obj) is dict
            is_message = isinstance(obj, Message) and not _indexable(type(obj))
            for data_key, attr_name, name, serialize, default, field in fields:
                if serialize is None:  # marshmallow's own field
                    value = field.serialize(attr_name, obj, accessor=accessor)
                    if value is not MISSING:
                        out[data_key] = plain(value)
                    continue
                if custom:
                    value = accessor(obj, name, MISSING)
                elif is_dict:
                    value = obj[name] if name in obj else getattr(obj, name, MISSING)
                elif is_message:
                    value = getattr(obj, name, MISSING)
                else:
                    value = get_value(obj, name, MISSING)
                if value is MISSING:
                    value = default() if callable(default) else default
                    if value is MISSING:
                        continue
                out[data_key] = serialize(value)
            result: Any = out
            for hook, pass_original in post:
                result = (hook(result, original, many=False) if pass_original
                          else hook(result, many=False))
            return result
        return dump

    def serializer(self, field: ma.fields.Field, as_class: type | None = None) -> Dump:
        """``field._serialize(value, ...)`` (of ``as_class``, a stock class the field
        extends, when given), for a value that may be null."""
        own = _own(field, "compiled_dump") if as_class is None else None
        if own is not None:
            dump: Dump = own(field, self)
            return dump
        kind = as_class or type(field)
        if kind is ma.fields.String:
            return _dump_string
        if kind is ma.fields.Integer and not field.as_string:  # type: ignore[attr-defined]
            return _dump_integer
        if kind is ma.fields.Boolean:
            return _boolean_dumper(field)  # type: ignore[arg-type]
        if kind is ma.fields.List:
            item = self.serializer(field.inner)  # type: ignore[attr-defined]
            if item is _dump_string:
                return _dump_string_list

            def dump_list(value: Any) -> Any:
                return None if value is None else [item(each) for each in value]
            return dump_list
        if kind is ma.fields.Dict:
            return self._dict_dumper(field)  # type: ignore[arg-type]
        if kind is ma.fields.Nested:
            schema = field.schema  # type: ignore[attr-defined]
            if schema.many or field.many:  # type: ignore[attr-defined]
                raise Unsupported("a Nested field of many")
            nested = self.schema_dumper(schema)

            def dump_nested(value: Any) -> Any:
                return None if value is None else nested(value)
            return dump_nested
        raise Unsupported(f"{kind.__name__} is left to marshmallow")

    def _dict_dumper(self, field: ma.fields.Dict) -> Dump:
        if field.key_field is None and field.value_field is None:
            return lambda value: None if value is None else plain(dict(value))
        keys = self.serializer(field.key_field) if field.key_field else None
        values = self.serializer(field.value_field) if field.value_field else None

        def dump(value: Any) -> Any:
            if value is None:
                return None
            new_keys = {k: k for k in value} if keys is None else {k: keys(k) for k in value}
            if values is None:
                return {new_keys[k]: v for k, v in value.items() if k in new_keys}
            return {new_keys[k]: values(v) for k, v in value.items()}
        return dump


_INDEXABLE: dict[type, bool] = {}


def _indexable(kind: type) -> bool:
    """Whether a message type has ``__getitem__`` (a Struct does), which marshmallow's
    accessor would try before the attribute."""
    found = _INDEXABLE.get(kind)
    if found is None:
        found = _INDEXABLE[kind] = hasattr(kind, "__getitem__")
    return found


def _load_string(value: Any) -> Any:
    if type(value) is str:
        return value
    raise Refused


def _load_integer(value: Any) -> Any:
    # int(value) is value itself for an int; marshmallow refuses a bool, and converts
    # (or, strict, refuses) anything else, which is left to it
    if type(value) is int:
        return value
    raise Refused


def _load_mapping(value: Any) -> Any:
    if type(value) is not dict:
        raise Refused
    return dict(value)


def _boolean_loader(field: ma.fields.Boolean) -> Load:
    """True and False, read as marshmallow reads them with this field's truthy and falsy
    values (anything else, "yes" or 1, is left to it)."""
    results = {}
    for value in (True, False):
        try:
            results[value] = field._deserialize(value, None, None)
        except ma.ValidationError:
            pass
    true, false = results.get(True, MISSING), results.get(False, MISSING)

    def load(value: Any) -> Any:
        if value is True and true is not MISSING:
            return true
        if value is False and false is not MISSING:
            return false
        raise Refused
    return load


def _dump_string(value: Any) -> Any:
    if type(value) is str:
        return value
    return None if value is None else ma.utils.ensure_text_type(value)


def _dump_string_list(value: Any) -> Any:
    if value is None:
        return None
    return [each if type(each) is str else _dump_string(each) for each in value]


def _dump_integer(value: Any) -> Any:
    if type(value) is int:
        return value
    return None if value is None else int(value)


def _boolean_dumper(field: ma.fields.Boolean) -> Dump:
    true = field._serialize(True, None, None)
    false = field._serialize(False, None, None)

    def dump(value: Any) -> Any:
        if value is True:
            return true
        if value is False:
            return false
        return field._serialize(value, None, None)
    return dump


def plain(value: Any) -> Any:
    """``value`` if it is JSON that every encoder writes alike: objects with string keys,
    arrays, strings, integers within 64 bits, booleans and null. A float (encoders spell
    some differently), a tuple or another type is :class:`Refused`."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is int:
        if -PLAIN_INTEGER < value < PLAIN_INTEGER:
            return value
        raise Refused
    if kind is list:
        for each in value:
            plain(each)
        return value
    if kind is dict:
        for key, each in value.items():
            if type(key) is not str:
                raise Refused
            plain(each)
        return value
    raise Refused


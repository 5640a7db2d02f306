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
overrides ``_deserialize`` does not inherit them); a schema with its own ``get_attribute``
may say, with ``compiled_attribute(attr)`` beside it, the expression in ``obj`` that it
reads each attribute with, written inline (and with ``compiled_part()``, the part of
``obj`` those expressions read as ``part``, read once). Any other field is left to marshmallow
at the schema that holds it (``field.deserialize`` / ``field.serialize``), so a compiled
schema reads and writes exactly as marshmallow does, only faster; the equivalence is
tested on recorded and random bodies and answers (``tests/platform/test_compiled.py``).

Reading, each compiled loader also knows how deep the JSON it accepts can nest, so a
caller can skip the request's nesting check for bodies that no compiled loader could
accept past the limit.
"""

from __future__ import annotations

import keyword
import re
import linecache
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol, TypeVar

import marshmallow as ma
from google.protobuf.descriptor import FieldDescriptor
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
    counting its own (``None``: any depth). A field read by looking a string up (an
    enum's names) says so with its ``table``, so the code of its schema does it inline;
    one that reads an object by the loader its ``tag`` key names says so with
    ``dispatch`` (the tag, the loaders by tag), so a list of them picks each one's
    loader inline; one that allows null gives its reading of what is not null as
    ``present``, so a list of them skips the call for null."""

    load: Load
    depth: int | None
    table: Mapping[str, Any] | None = None
    dispatch: tuple[str, Mapping[str, Load]] | None = None
    present: Load | None = None


def table_loader(table: Mapping[str, Any]) -> Loader:
    """A field that reads a string by looking it up in ``table`` (whose values are not
    null): any other value, or a string not in it, is refused."""
    assert all(type(key) is str for key in table) and None not in table.values()

    def load(value: Any) -> Any:
        try:  # only a str equals a key; a list or object is no key at all
            return table[value]
        except (KeyError, TypeError):
            raise Refused from None
    return Loader(load, 0, table)


def table_dumper(table: Mapping[Any, Any]) -> Dump:
    """A field written as ``table.get(value)`` (null for null and for what it lacks)."""
    assert None not in table
    dump = table.get
    return _Table(dump, table)


class _Table:
    """A writer that is a table lookup (so its schema's code does it inline)."""

    __slots__ = ("get", "table")

    def __init__(self, get: Dump, table: Mapping[Any, Any]) -> None:
        self.get, self.table = get, table

    def __call__(self, value: Any) -> Any:
        return self.get(value)


def oneof_dumper(oneof: str, dumps: Mapping[str, Dump]) -> Dump:
    """A protobuf message written by the dumper that its ``oneof``'s set member names
    (null for null): in a list, its schema's code picks the dumper inline."""
    return _OneOf(oneof, dict(dumps))


class _OneOf:
    """A writer that picks another by a message's oneof (so a list of them is written
    without a call per item to pick)."""

    __slots__ = ("dumps", "oneof")

    def __init__(self, oneof: str, dumps: dict[str, Dump]) -> None:
        self.oneof, self.dumps = oneof, dumps

    def __call__(self, value: Any) -> Any:
        return None if value is None else self.dumps[value.WhichOneof(self.oneof)](value)


class _ListedAttribute:
    """A writer of a value's ``attr``, a list of what ``table`` looks up (null for a null
    value or attribute), that a schema's code writes inline."""

    __slots__ = ("attr", "table")

    def __init__(self, attr: str, table: Mapping[Any, Any]) -> None:
        self.attr, self.table = attr, table

    def __call__(self, value: Any) -> Any:
        if value is None:
            return None
        items = getattr(value, self.attr)
        return None if items is None else [self.table.get(each) for each in items]


def _listed(code: _Source, written: _ListedAttribute, value: str) -> str:
    """The expression writing ``value`` (not null) as ``written`` does."""
    return (f"(None if (items := {attribute_read(value, written.attr)}) is None else "
            f"[{code.constant(written.table)}.get(item) for item in items])")


def deeper(depth: int | None, by: int = 1) -> int | None:
    return None if depth is None else depth + by


def _own(field: ma.fields.Field[Any], name: str) -> Any:
    """A compile method defined by ``field``'s own class, not inherited."""
    return type(field).__dict__.get(name)


def _overrides(field: ma.fields.Field[Any], *names: str) -> bool:
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


_Key = TypeVar("_Key")
_Made = TypeVar("_Made")


class Compiler:
    """Compiles schemas and fields, each once (by identity)."""

    def __init__(self) -> None:
        self._loaders: dict[tuple[int, str], Loader] = {}
        self._dumpers: dict[int, Dump] = {}
        self._open: set[int] = set()
        self._keep: list[Any] = []  # what the identities above name stays alive
        self.sources: dict[str, str] = {}
        """Each generated function's source, by its file name in tracebacks."""

    def _function(self, code: _Source) -> Callable[[Any], Any]:
        """The function ``code`` defines; its source kept (``sources``, and for
        tracebacks)."""
        text = "\n".join(code.lines) + "\n"
        filename = f"<compiled {code.name} {len(self.sources)}>"
        exec(compile(text, filename, "exec"), code.names)  # noqa: S102 (our own source)
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        self.sources[filename] = text
        function: Callable[[Any], Any] = code.names[code.name]
        return function

    def _once(self, built: dict[_Key, _Made], key: _Key, schema: ma.Schema,
              build: Callable[[], _Made]) -> _Made:
        """What ``build`` makes for ``schema``, made once and kept in ``built`` under
        ``key``; a schema that nests itself is refused (its code would never end)."""
        cached = built.get(key)
        if cached is not None:
            return cached
        if id(schema) in self._open:
            raise Unsupported(f"{type(schema).__name__} nests itself")
        self._open.add(id(schema))
        try:
            made = built[key] = build()
        finally:
            self._open.discard(id(schema))
        self._keep.append(schema)
        return made

    # Reading ----------------------------------------------------------------------------

    def schema_loader(self, schema: ma.Schema, unknown: str | None = None) -> Loader:
        """``schema.load(data, unknown=unknown)`` for one object."""
        unknown = schema.unknown if unknown is None else unknown
        return self._once(self._loaders, (id(schema), unknown), schema,
                          lambda: self._schema_loader(schema, unknown))

    def _schema_loader(self, schema: ma.Schema, unknown: str) -> Loader:
        """The code of ``schema.load``: each field in turn, as marshmallow takes them
        (missing, null, the field's reading and validators; a field the compiler does not
        know by marshmallow's own ``deserialize``), then unknown keys, the schema's
        validators and its ``post_load`` hooks."""
        name = type(schema).__name__
        if schema.many or schema.partial or schema._hooks[VALIDATES]:
            raise Unsupported(f"{name}: many, partial or field validators")
        code = _Source(f"load_{name}")
        kwargs = f"many=False, partial=None, unknown={code.constant(unknown)}"
        code.add(f"def {code.name}(original):",
                 "    if type(original) is not dict:",
                 "        raise Refused",
                 "    data = original")
        for hook, pass_original in _hooks(schema, PRE_LOAD, collection_first=True):
            call = code.constant(hook)
            code.add(f"    data = {call}(data{', original' if pass_original else ''}, {kwargs})",
                     "    if type(data) is not dict:",
                     "        raise Refused")
        code.add("    out = {}")
        depth: int | None = 1
        known = []
        for attr_name, field in schema.load_fields.items():
            data_key = field.data_key if field.data_key is not None else attr_name
            target = field.attribute or attr_name
            if "." in target:
                raise Unsupported(f"{name}.{attr_name}: a dotted attribute")
            known.append(data_key)
            field_depth = self._load_field(code, field, repr(data_key), repr(target))
            depth = None if depth is None or field_depth is None else max(depth, 1 + field_depth)
        if unknown != ma.EXCLUDE:
            code.add(f"    if not {code.constant(frozenset(known))}.issuperset(data):")
            if unknown == ma.RAISE:
                code.add("        raise Refused")
            else:  # INCLUDE: the other keys as they are
                code.add("        for key in data:",
                         f"            if key not in {code.constant(frozenset(known))}:",
                         "                out[key] = data[key]")
        for check, pass_original in _hooks(schema, VALIDATES_SCHEMA, collection_first=True):
            code.add(f"    {code.constant(check)}(out{', original' if pass_original else ''}, "
                     f"{kwargs})")
        for hook, pass_original in _hooks(schema, POST_LOAD, collection_first=True):
            code.add(f"    out = {code.constant(hook)}(out{', original' if pass_original else ''}, "
                     f"{kwargs})")
        code.add("    return out")
        return Loader(self._function(code), depth)

    def _load_field(self, code: _Source, field: ma.fields.Field[Any], key: str, target: str
                    ) -> int | None:
        """The code that loads one field of ``data`` into ``out``; the depth it accepts."""
        try:
            loader = self.field_loader(field)
        except Unsupported:  # marshmallow's own field, missing values too
            call = code.constant(field)
            code.add(f"    loaded = {call}.deserialize(data.get({key}, MISSING), {key}, data)",
                     "    if loaded is not MISSING:",
                     f"        out[{target}] = loaded")
            return None
        code.add(f"    value = data.get({key}, MISSING)",
                 "    if value is not MISSING:")
        inline = self._inline_load(code, field, loader)
        if inline is None:
            code.add(f"        out[{target}] = {code.constant(loader.load)}(value)")
        elif field.allow_none:
            checks, result = inline
            code.add("        if value is None:",
                     f"            out[{target}] = None",
                     "        else:",
                     *(f"            {line}" for line in checks),
                     f"            out[{target}] = {result}")
        else:
            checks, result = inline
            code.add(*(f"        {line}" for line in checks),
                     f"        out[{target}] = {result}")
        if field.required:
            code.add("    else:",
                     "        raise Refused")
        elif field.load_default is not MISSING:
            default = code.constant(field.load_default)
            code.add("    else:",
                     f"        out[{target}] = {default}()" if callable(field.load_default)
                     else f"        out[{target}] = {default}")
        return loader.depth

    def _inline_load(self, code: _Source, field: ma.fields.Field[Any], loader: Loader
                     ) -> tuple[list[str], str] | None:
        """Lines that check ``value`` (not null) and the expression it loads to, for a
        field simple enough to read inline; else None (its loader is called)."""
        checks = self._inline_item(code, field, loader, "value")
        if checks is not None:
            return checks
        if type(field) is ma.fields.List and not field.validators:
            inner: ma.fields.Field[Any] = field.inner
            item = self.field_loader(inner)
            if inner.allow_none:
                return None
            if item.table is not None and not inner.validators:
                table = code.constant(item.table)
                return (["if type(value) is not list:",
                         "    raise Refused",
                         "try:",
                         f"    loaded = [{table}[each] for each in value]",
                         "except (KeyError, TypeError):",
                         "    raise Refused from None"], "loaded")
            each = self._inline_item(code, inner, item, "each")
            if each is not None and each[1] == "each" and len(each[0]) == 2:
                condition = each[0][0].removeprefix("if ").removesuffix(":")
                return ([f"if type(value) is not list or any({condition} for each in value):",
                         "    raise Refused"], "list(value)")
        return None

    def _inline_item(self, code: _Source, field: ma.fields.Field[Any], loader: Loader, name: str
                     ) -> tuple[list[str], str] | None:
        """Inline lines for a string, a whole number (in a range) or a table lookup."""
        if _own(field, "compiled_load") is not None:
            core = self.deserializer(field)
            if core.table is None or field.validators:
                return None
            table = code.constant(core.table)
            return ([f"loaded = {table}.get({name}) if type({name}) is str else None",
                     "if loaded is None:",
                     "    raise Refused"], "loaded")
        kind = type(field)
        validators = list(field.validators)
        if kind is ma.fields.String and not validators:
            return ([f"if type({name}) is not str:", "    raise Refused"], name)
        if kind is ma.fields.Integer and not field.as_string:  # type: ignore[attr-defined]
            if not validators:
                return ([f"if type({name}) is not int:", "    raise Refused"], name)
            bounds = _inclusive_range(validators)
            if bounds is not None:
                low, high = bounds
                return ([f"if type({name}) is not int or not {low} <= {name} <= {high}:",
                         "    raise Refused"], name)
        return None

    def field_loader(self, field: ma.fields.Field[Any]) -> Loader:
        """``field.deserialize(value)`` for a value that is present: null where the field
        allows it, else the field's own reading, then its validators."""
        if field.pre_load or field.post_load or _overrides(field, "deserialize",
                                                             "_validate_missing", "_validate"):
            raise Unsupported(f"{type(field).__name__}: its own deserialize steps")
        core = self.deserializer(field)
        load = present = self._validated(field, core.load)
        if field.allow_none:
            def load(value: Any) -> Any:
                return None if value is None else present(value)
        plain = load is core.load
        return Loader(load, core.depth, core.table if plain else None,
                      core.dispatch if plain else None,
                      present if field.allow_none else None)

    def deserializer(self, field: ma.fields.Field[Any], as_class: type | None = None) -> Loader:
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

    def _validated(self, field: ma.fields.Field[Any], load: Load) -> Load:
        """``load`` followed by the field's validators (a whole-number range inline)."""
        validators = list(field.validators)
        if not validators:
            return load
        bounds = _inclusive_range(validators)
        if load is _load_integer and bounds is not None:
            low, high = bounds

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

    def _list_loader(self, field: ma.fields.List[Any]) -> Loader:
        item = self.field_loader(field.inner)
        item_load, table = item.load, item.table

        if table is not None and not field.inner.allow_none and not field.inner.validators:
            def load(value: Any) -> Any:
                if type(value) is not list:
                    raise Refused
                try:
                    return [table[each] for each in value]
                except (KeyError, TypeError):
                    raise Refused from None
        elif item_load is _load_string:
            def load(value: Any) -> Any:
                if type(value) is not list or any(type(each) is not str for each in value):
                    raise Refused
                return list(value)
        elif item.dispatch is not None:
            tag, loads = item.dispatch

            def load(value: Any) -> Any:
                if type(value) is not list:
                    raise Refused
                try:  # an item that is no object, or whose tag names no loader
                    return [loads[each[tag]](each) for each in value]
                except (KeyError, TypeError):
                    raise Refused from None
        elif item.present is not None:
            present = item.present

            def load(value: Any) -> Any:
                if type(value) is not list:
                    raise Refused
                return [None if each is None else present(each) for each in value]
        else:
            def load(value: Any) -> Any:
                if type(value) is not list:
                    raise Refused
                return [item_load(each) for each in value]
        return Loader(load, deeper(item.depth))

    def _dict_loader(self, field: ma.fields.Dict) -> Loader:
        if field.key_field is None and field.value_field is None:
            return Loader(_load_mapping, None)
        key_loader = self.field_loader(field.key_field) if field.key_field else None
        keys = key_loader.load if key_loader else None
        table = key_loader.table if key_loader else None
        values = self.field_loader(field.value_field) if field.value_field else None
        value_load = values.load if values else None

        if table is not None and value_load is not None:
            def load_looked_up(value: Any) -> Any:
                if type(value) is not dict:
                    raise Refused
                try:  # every key first, as marshmallow
                    new_keys = {k: table[k] for k in value}
                except (KeyError, TypeError):
                    raise Refused from None
                return {new_keys[k]: value_load(v) for k, v in value.items()}
            return Loader(load_looked_up, deeper(values.depth) if values else None)

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
        return self._once(self._dumpers, id(schema), schema,
                          lambda: self._schema_dumper(schema))

    def _schema_dumper(self, schema: ma.Schema) -> Dump:
        """The code of ``schema.dump``: its ``pre_dump`` hooks, then each field's value
        as the schema's accessor finds it (for a dict, a protobuf message or anything
        else: three copies of the fields' code), its ``dump_default`` when missing, and
        the field's writing (a field the compiler does not know: marshmallow's own
        ``serialize``, its result held to plain JSON), then ``post_dump`` hooks."""
        name = type(schema).__name__
        if schema.many:
            raise Unsupported(f"{name}: many")
        code = _Source(f"dump_{name}")
        code.add(f"def {code.name}(obj):",
                 "    original = obj")
        for hook, pass_original in _hooks(schema, PRE_DUMP, collection_first=False):
            code.add(f"    obj = {code.constant(hook)}(obj{', original' if pass_original else ''}, "
                     "many=False)")
        fields: list[_DumpedField] = []
        for attr_name, field in schema.dump_fields.items():
            data_key = field.data_key if field.data_key is not None else attr_name
            found = field.attribute or attr_name
            try:
                if (not field._CHECK_ATTRIBUTE or "." in found
                        or _overrides(field, "serialize", "get_value")):
                    raise Unsupported("the field's own serialize")
                write: str | None = self._inline_dump(code, field)
            except Unsupported:
                write = None
            fields.append((data_key, attr_name, found, write, field))
        accessor = code.constant(schema.get_attribute)
        if type(schema).get_attribute is not ma.Schema.get_attribute:
            code.add("    out = {}")
            called = f"{accessor}(obj, {{found!r}}, MISSING)"
            reads = [_accessor_says(schema, "compiled_attribute", entry[2]) for entry in fields]
            part = _accessor_says(schema, "compiled_part")
            if part is not None and any(re.search(r"\bpart\b", read) for read in reads if read):
                code.add(f"    part = {part}")
            for entry, read in zip(fields, reads):
                self._dump_fields(code, [entry], accessor, called if read is None else
                                  read.replace("{", "{{").replace("}", "}}"), "    ")
        else:
            typed: dict[type, Dump] = {}

            def learn(kind: type[Message]) -> Dump:
                made = typed[kind] = self._message_dumper(code, fields, accessor, kind)
                return made
            code.add(f"    typed = {code.constant(typed)}.get(type(obj))",
                     "    if typed is not None:",
                     "        out = typed(obj)",
                     "    elif type(obj) is dict:",
                     "        out = {}")
            self._dump_fields(code, fields, accessor, "obj.get({found!r}, MISSING)", "        ",
                              "getattr(obj, {found!r}, MISSING)")
            code.add(f"    elif isinstance(obj, Message) and not {code.constant(_indexable)}(type(obj)):",
                     f"        out = {code.constant(learn)}(type(obj))(obj)",
                     "    else:",
                     "        out = {}")
            self._dump_fields(code, fields, accessor,
                              f"{code.constant(get_value)}(obj, {{found!r}}, MISSING)", "        ")
        for hook, pass_original in _hooks(schema, POST_DUMP, collection_first=False):
            code.add(f"    out = {code.constant(hook)}(out{', original' if pass_original else ''}, "
                     "many=False)")
        code.add("    return out")
        return self._function(code)

    def _message_dumper(self, code: _Source, fields: list[_DumpedField], accessor: str,
                        kind: type[Message]) -> Dump:
        """The fields' code for a protobuf message of type ``kind``, made when the schema
        first writes one: what the code for any message does (``getattr(obj, name,
        MISSING)``), less what the message type decides. A name that is one of its fields
        is always there (neither missing nor null, so no default applies), and a String
        of a string field or an Integer of a whole-number one writes the value as it is,
        so only the other fields keep their checks."""
        protos = kind.DESCRIPTOR.fields_by_name
        made = _Source(f"{code.name}_{kind.__name__}_{len(self.sources)}", code.names)
        made.add(f"def {made.name}(obj):",
                 "    out = {}")
        for entry in fields:
            data_key, _, found, write, field = entry
            proto = protos.get(found)
            if write is None or proto is None:
                self._dump_fields(made, [entry], accessor, "getattr(obj, {found!r}, MISSING)",
                                  "    ")
                continue
            read = attribute_read("obj", found)
            if _as_is(field, proto):
                made.add(f"    out[{data_key!r}] = {read}")
            else:
                made.add(f"    value = {read}",
                         f"    out[{data_key!r}] = {write.format(v='value')}")
        made.add("    return out")
        return self._function(made)

    def _dump_fields(self, code: _Source, fields: list[_DumpedField],
                     accessor: str, access: str, indent: str, fallback: str | None = None
                     ) -> None:
        for data_key, attr_name, found, write, field in fields:
            if write is None:
                code.add(f"{indent}value = {code.constant(field)}.serialize({attr_name!r}, obj, "
                         f"accessor={accessor})",
                         f"{indent}if value is not MISSING:",
                         f"{indent}    out[{data_key!r}] = {code.constant(plain)}(value)")
                continue
            code.add(f"{indent}value = {access.format(found=found)}")
            if fallback:  # a dict without the key: the attribute, as marshmallow's accessor
                code.add(f"{indent}if value is MISSING:",
                         f"{indent}    value = {fallback.format(found=found)}")
            default = field.dump_default
            if default is MISSING:
                code.add(f"{indent}if value is not MISSING:",
                         f"{indent}    out[{data_key!r}] = {write.format(v='value')}")
                continue
            code.add(f"{indent}if value is MISSING:",
                     f"{indent}    value = {code.constant(default)}"
                     + ("()" if callable(default) else ""),
                     f"{indent}if value is not MISSING:",
                     f"{indent}    out[{data_key!r}] = {write.format(v='value')}")

    def _inline_dump(self, code: _Source, field: ma.fields.Field[Any]) -> str:
        """An expression that writes ``{v}`` as the field's ``_serialize`` does."""
        own = _own(field, "compiled_dump")
        if own is not None:
            written = self.serializer(field)
            if isinstance(written, _Table):
                return f"{code.constant(written.table)}.get({{v}})"
            if isinstance(written, _ListedAttribute):
                return f"(None if {{v}} is None else {_listed(code, written, '{v}')})"
            return f"{code.constant(written)}({{v}})"
        kind = type(field)
        if kind is ma.fields.String:
            return f"({{v}} if type({{v}}) is str else {code.constant(_dump_string)}({{v}}))"
        if kind is ma.fields.Integer and not field.as_string:  # type: ignore[attr-defined]
            return f"({{v}} if type({{v}}) is int else {code.constant(_dump_integer)}({{v}}))"
        if kind is ma.fields.Boolean:
            true, false = (field._serialize(value, None, None) for value in (True, False))
            return (f"({code.constant(true)} if {{v}} is True else {code.constant(false)} "
                    f"if {{v}} is False else {code.constant(_boolean_dumper(field))}({{v}}))")  # type: ignore[arg-type]
        if kind is ma.fields.List:
            inner: ma.fields.Field[Any] = field.inner  # type: ignore[attr-defined]
            item = self.serializer(inner)
            if isinstance(item, _Table):
                return (f"(None if {{v}} is None else "
                        f"[{code.constant(item.table)}.get(each) for each in {{v}}])")
            if isinstance(item, _ListedAttribute):
                return (f"(None if {{v}} is None else [None if each is None else "
                        f"{_listed(code, item, 'each')} for each in {{v}}])")
            if isinstance(item, _OneOf):
                dumps = code.constant(item.dumps)
                return (f"(None if {{v}} is None else [None if each is None else "
                        f"{dumps}[each.WhichOneof({item.oneof!r})](each) for each in {{v}}])")
            if type(inner) is ma.fields.Nested:  # a list of objects: no call per item
                nested = code.constant(self._nested_dumper(inner))
                return (f"(None if {{v}} is None else "
                        f"[None if each is None else {nested}(each) for each in {{v}}])")
        if kind is ma.fields.Nested:
            nested = code.constant(self._nested_dumper(field))  # type: ignore[arg-type]
            return f"(None if {{v}} is None else {nested}({{v}}))"
        return f"{code.constant(self.serializer(field))}({{v}})"

    def listed_attribute(self, field: ma.fields.List[Any], attr: str) -> Dump:
        """What the List ``field`` writes of its value's ``attr`` (a message's repeated
        field), null for null; for a list of looked-up values (enum names), a writer that
        the code of a schema writing it inlines."""
        item = self.serializer(field.inner)
        if isinstance(item, _Table):
            return _ListedAttribute(attr, item.table)
        items = self.serializer(field, ma.fields.List)
        return lambda value: None if value is None else items(getattr(value, attr))

    def _nested_dumper(self, field: ma.fields.Nested) -> Dump:
        """The dumper of a Nested field's schema, for a value that is not null."""
        schema = field.schema
        if schema.many or field.many:
            raise Unsupported("a Nested field of many")
        return self.schema_dumper(schema)

    def serializer(self, field: ma.fields.Field[Any], as_class: type | None = None) -> Dump:
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
            if isinstance(item, _Table):
                get = item.get

                def dump_looked_up(value: Any) -> Any:
                    return None if value is None else [get(each) for each in value]
                return dump_looked_up

            def dump_list(value: Any) -> Any:
                return None if value is None else [item(each) for each in value]
            return dump_list
        if kind is ma.fields.Dict:
            return self._dict_dumper(field)  # type: ignore[arg-type]
        if kind is ma.fields.Nested:
            nested = self._nested_dumper(field)  # type: ignore[arg-type]

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


def attribute_read(obj: str, *names: str) -> str:
    """The expression reading the attributes ``names`` in turn from the expression
    ``obj``: ``obj.a.b``, or by ``getattr`` for a name that is no identifier."""
    for name in names:
        obj = (f"{obj}.{name}" if name.isidentifier() and not keyword.iskeyword(name)
               else f"getattr({obj}, {name!r})")
    return obj


def _accessor_says(schema: ma.Schema, method: str, *args: str) -> str | None:
    """An expression that ``schema``'s own ``get_attribute`` is read as, when the class
    defining it also defines ``method``: ``compiled_attribute(attr)``, the expression
    in ``obj`` (and ``part``) reading ``attr``, written inline so that no call of the
    accessor is made for every field of every object; ``compiled_part()``, the part of
    ``obj`` that several attributes are read from, bound once to ``part``. None: the
    accessor is called."""
    owner = next(kind for kind in type(schema).__mro__ if "get_attribute" in vars(kind))
    say = vars(owner).get(method)
    if say is None:
        return None
    expression: str | None = say(schema, *args)
    return expression


def _inclusive_range(validators: list[Any]) -> tuple[int, int] | None:
    """A whole-number field's one validator as its bounds, if it is an inclusive Range
    (a subclass too, if it checks as Range does: it may word its errors its own way,
    since a value out of range is refused, and marshmallow then says why)."""
    if (len(validators) == 1 and isinstance(validators[0], ma.validate.Range)
            and type(validators[0]).__call__ is ma.validate.Range.__call__):
        check = validators[0]
        if (check.min_inclusive and check.max_inclusive and type(check.min) is int
                and type(check.max) is int):
            return check.min, check.max
    return None


_DumpedField = tuple[str, str, str, "str | None", ma.fields.Field[Any]]
"""A field a schema writes: its key in the JSON, its name in the schema, the attribute
it reads, the expression writing ``{v}`` (None: the field's own ``serialize``), and the
field."""

_WHOLE_NUMBERS = frozenset({
    FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_FIXED32, FieldDescriptor.TYPE_FIXED64,
    FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_SFIXED64})


class _ProtoField(Protocol):
    """A protobuf field's descriptor as :func:`_as_is` reads it: the pure-Python
    ``FieldDescriptor`` or upb's (what a message's ``DESCRIPTOR`` is, the stubs say)."""

    @property
    def is_repeated(self) -> bool: ...

    @property
    def type(self) -> int: ...


def _as_is(field: ma.fields.Field[Any], proto: _ProtoField) -> bool:
    """Whether ``field`` writes the protobuf field ``proto``'s value unchanged: a String
    of a string (``str(value)`` is the value), an Integer of a whole number
    (``int(value)`` is the value)."""
    if proto.is_repeated:
        return False
    kind = type(field)
    if kind is ma.fields.String:
        return proto.type == FieldDescriptor.TYPE_STRING
    if kind is ma.fields.Integer and not field.as_string:  # type: ignore[attr-defined]
        return proto.type in _WHOLE_NUMBERS
    return False


class _Source:
    """A function's source being written, and the values its names stand for (``names``:
    shared with another function's, whose constants it uses)."""

    def __init__(self, name: str, names: dict[str, Any] | None = None) -> None:
        self.name = name
        self.lines: list[str] = []
        self.names: dict[str, Any] = {"MISSING": MISSING, "Refused": Refused,
                                      "Message": Message} if names is None else names

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def constant(self, value: Any) -> str:
        """A name the code can use for ``value``."""
        for name, known in self.names.items():
            if known is value:
                return name
        name = f"k{len(self.names)}"
        self.names[name] = value
        return name


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


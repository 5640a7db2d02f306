"""Compiling marshmallow's writing: a schema's ``dump`` and its fields' ``serialize``, as
:mod:`.compiled` describes, into code that refuses what it cannot vouch for as plain
JSON.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import marshmallow as ma
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from marshmallow.decorators import POST_DUMP, PRE_DUMP
from marshmallow.utils import get_value

from .compiled_parts import (
    MISSING,
    CompilerBase,
    Dump,
    ListedAttribute,
    OneOfDump,
    Source,
    TableDump,
    Unsupported,
    attribute_read,
    overrides,
    own_method,
    plain,
    schema_hooks,
)

class SchemaDumping(CompilerBase):
    """Compiles schemas' and fields' writing, each once."""

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
        code = Source(f"dump_{name}")
        code.add(f"def {code.name}(obj):",
                 "    original = obj")
        for hook, pass_original in schema_hooks(schema, PRE_DUMP, collection_first=False):
            code.add(f"    obj = {code.constant(hook)}(obj{', original' if pass_original else ''}, "
                     "many=False)")
        fields: list[_DumpedField] = []
        for attr_name, field in schema.dump_fields.items():
            data_key = field.data_key if field.data_key is not None else attr_name
            found = field.attribute or attr_name
            try:
                if (not field._CHECK_ATTRIBUTE or "." in found
                        or overrides(field, "serialize", "get_value")):
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
        for hook, pass_original in schema_hooks(schema, POST_DUMP, collection_first=False):
            code.add(f"    out = {code.constant(hook)}(out{', original' if pass_original else ''}, "
                     "many=False)")
        code.add("    return out")
        return self._function(code)

    def _message_dumper(self, code: Source, fields: list[_DumpedField], accessor: str,
                        kind: type[Message]) -> Dump:
        """The fields' code for a protobuf message of type ``kind``, made when the schema
        first writes one: what the code for any message does (``getattr(obj, name,
        MISSING)``), less what the message type decides. A name that is one of its fields
        is always there (neither missing nor null, so no default applies), and a String
        of a string field or an Integer of a whole-number one writes the value as it is,
        so only the other fields keep their checks."""
        protos = kind.DESCRIPTOR.fields_by_name
        made = Source(f"{code.name}_{kind.__name__}_{len(self.sources)}", code.names)
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

    def _dump_fields(self, code: Source, fields: list[_DumpedField],
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

    def _inline_dump(self, code: Source, field: ma.fields.Field[Any]) -> str:
        """An expression that writes ``{v}`` as the field's ``_serialize`` does."""
        own = own_method(field, "compiled_dump")
        if own is not None:
            written = self.serializer(field)
            if isinstance(written, TableDump):
                return f"{code.constant(written.table)}.get({{v}})"
            if isinstance(written, ListedAttribute):
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
            if isinstance(item, TableDump):
                return (f"(None if {{v}} is None else "
                        f"[{code.constant(item.table)}.get(each) for each in {{v}}])")
            if isinstance(item, ListedAttribute):
                return (f"(None if {{v}} is None else [None if each is None else "
                        f"{_listed(code, item, 'each')} for each in {{v}}])")
            if isinstance(item, OneOfDump):
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
        if isinstance(item, TableDump):
            return ListedAttribute(attr, item.table)
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
        own = own_method(field, "compiled_dump") if as_class is None else None
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
            if isinstance(item, TableDump):
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


def _listed(code: Source, written: ListedAttribute, value: str) -> str:
    """The expression writing ``value`` (not null) as ``written`` does."""
    return (f"(None if (items := {attribute_read(value, written.attr)}) is None else "
            f"[{code.constant(written.table)}.get(item) for item in items])")


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


_INDEXABLE: dict[type, bool] = {}


def _indexable(kind: type) -> bool:
    """Whether a message type has ``__getitem__`` (a Struct does), which marshmallow's
    accessor would try before the attribute."""
    found = _INDEXABLE.get(kind)
    if found is None:
        found = _INDEXABLE[kind] = hasattr(kind, "__getitem__")
    return found


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

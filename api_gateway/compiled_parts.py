"""What the compiled schemas (:mod:`.compiled`) are made of: the refusals that leave a
value to marshmallow, the compiled readers and writers and the look-ups they are built
from, the source of a generated function, and the base of the compiler that makes each
schema's code once.
"""

from __future__ import annotations

import keyword
import linecache
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

import marshmallow as ma
from google.protobuf.message import Message

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
    return TableDump(dump, table)


class TableDump:
    """A writer that is a table lookup (so its schema's code does it inline)."""

    __slots__ = ("get", "table")

    def __init__(self, get: Dump, table: Mapping[Any, Any]) -> None:
        self.get, self.table = get, table

    def __call__(self, value: Any) -> Any:
        return self.get(value)


def oneof_dumper(oneof: str, dumps: Mapping[str, Dump]) -> Dump:
    """A protobuf message written by the dumper that its ``oneof``'s set member names
    (null for null): in a list, its schema's code picks the dumper inline."""
    return OneOfDump(oneof, dict(dumps))


class OneOfDump:
    """A writer that picks another by a message's oneof (so a list of them is written
    without a call per item to pick)."""

    __slots__ = ("dumps", "oneof")

    def __init__(self, oneof: str, dumps: dict[str, Dump]) -> None:
        self.oneof, self.dumps = oneof, dumps

    def __call__(self, value: Any) -> Any:
        return None if value is None else self.dumps[value.WhichOneof(self.oneof)](value)


class ListedAttribute:
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


def deeper(depth: int | None, by: int = 1) -> int | None:
    return None if depth is None else depth + by


def own_method(field: ma.fields.Field[Any], name: str) -> Any:
    """A compile method defined by ``field``'s own class, not inherited."""
    return type(field).__dict__.get(name)


def overrides(field: ma.fields.Field[Any], *names: str) -> bool:
    """Whether ``field``'s class replaces any of the base Field's ``names``."""
    return any(getattr(type(field), n) is not getattr(ma.fields.Field, n) for n in names)


def schema_hooks(schema: ma.Schema, tag: str, collection_first: bool
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


class CompilerBase:
    """What compiling schemas and fields takes: making each once (by identity), and a
    function from its source."""

    def __init__(self) -> None:
        self._loaders: dict[tuple[int, str], Loader] = {}
        self._dumpers: dict[int, Dump] = {}
        self._open: set[int] = set()
        self._keep: list[Any] = []  # what the identities above name stays alive
        self.sources: dict[str, str] = {}
        """Each generated function's source, by its file name in tracebacks."""

    def _function(self, code: Source) -> Callable[[Any], Any]:
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


def attribute_read(obj: str, *names: str) -> str:
    """The expression reading the attributes ``names`` in turn from the expression
    ``obj``: ``obj.a.b``, or by ``getattr`` for a name that is no identifier."""
    for name in names:
        obj = (f"{obj}.{name}" if name.isidentifier() and not keyword.iskeyword(name)
               else f"getattr({obj}, {name!r})")
    return obj


class Source:
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

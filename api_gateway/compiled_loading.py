"""Compiling marshmallow's reading: a schema's ``load`` and its fields' ``deserialize``, as
:mod:`.compiled` describes, into code that refuses at the first doubt.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA

from .compiled_parts import (
    MISSING,
    CompilerBase,
    Load,
    Loader,
    Refused,
    Source,
    Unsupported,
    deeper,
    overrides,
    own_method,
    schema_hooks,
)

class SchemaLoading(CompilerBase):
    """Compiles schemas' and fields' reading, each once."""

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
        code = Source(f"load_{name}")
        kwargs = f"many=False, partial=None, unknown={code.constant(unknown)}"
        code.add(f"def {code.name}(original):",
                 "    if type(original) is not dict:",
                 "        raise Refused",
                 "    data = original")
        for hook, pass_original in schema_hooks(schema, PRE_LOAD, collection_first=True):
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
        for check, pass_original in schema_hooks(schema, VALIDATES_SCHEMA, collection_first=True):
            code.add(f"    {code.constant(check)}(out{', original' if pass_original else ''}, "
                     f"{kwargs})")
        for hook, pass_original in schema_hooks(schema, POST_LOAD, collection_first=True):
            code.add(f"    out = {code.constant(hook)}(out{', original' if pass_original else ''}, "
                     f"{kwargs})")
        code.add("    return out")
        return Loader(self._function(code), depth)

    def _load_field(self, code: Source, field: ma.fields.Field[Any], key: str, target: str
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

    def _inline_load(self, code: Source, field: ma.fields.Field[Any], loader: Loader
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

    def _inline_item(self, code: Source, field: ma.fields.Field[Any], loader: Loader, name: str
                     ) -> tuple[list[str], str] | None:
        """Inline lines for a string, a whole number (in a range) or a table lookup."""
        if own_method(field, "compiled_load") is not None:
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
        if field.pre_load or field.post_load or overrides(field, "deserialize",
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
        own = own_method(field, "compiled_load") if as_class is None else None
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

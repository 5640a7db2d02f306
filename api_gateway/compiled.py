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
The reading is compiled by :mod:`.compiled_loading`, the writing by
:mod:`.compiled_dumping`, both from the parts in :mod:`.compiled_parts`; this module
puts them together and is what the rest of the gateway imports.

Reading, each compiled loader also knows how deep the JSON it accepts can nest, so a
caller can skip the request's nesting check for bodies that no compiled loader could
accept past the limit.
"""

from __future__ import annotations

from .compiled_dumping import SchemaDumping
from .compiled_loading import SchemaLoading
from .compiled_parts import (
    Dump,
    Loader,
    Refused,
    Unsupported,
    attribute_read,
    oneof_dumper,
    plain,
    table_dumper,
    table_loader,
)

__all__ = ["Compiler", "Dump", "Loader", "Refused", "Unsupported", "attribute_read",
           "oneof_dumper", "plain", "table_dumper", "table_loader"]


class Compiler(SchemaLoading, SchemaDumping):
    """Compiles schemas and fields, each once (by identity): their reading
    (:mod:`.compiled_loading`) and their writing (:mod:`.compiled_dumping`)."""

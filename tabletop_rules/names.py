"""Names as a person writes them: the one place a typed or printed name becomes an id.

A player types "Charcoal Kiln" as the tile prints it, "Egg", "eggs" or "egg ", a French
player "œuf" or "oeuf"; a photo reader sends the printed names. Each spelling reduces to
a key (:func:`name_key`: case, accents, apostrophes, spaces, hyphens and underscores do
not count), and a :class:`Names` vocabulary finds the id whose spellings share it, or the
nearest ids (difflib's ratio, as Python's own "did you mean" uses) for a near miss.
Answers always give the canonical id.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping

_APOSTROPHES = re.compile(r"['’ʼ`´]")
_SEPARATORS = re.compile(r"[\s_\-‐‑–—]+")
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})

SUGGESTIONS = 3
"""The most names a "did you mean" offers."""


def name_key(text: str) -> str:
    """What every spelling of a name shares: ``"Hauler's Hut"``, ``"haulers_hut"`` and
    ``" HAULERS-hut"`` are all ``haulers_hut``; ``"Œuf"`` is ``oeuf``."""
    folded = unicodedata.normalize("NFKD", text.casefold().translate(_LIGATURES))
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return _SEPARATORS.sub("_", _APOSTROPHES.sub("", plain)).strip("_")


class Names:
    """The ids of one kind of thing (ingredients, goods, a catalog's buildings) by every
    spelling of theirs: each id's own, and the others given (printed names, words in
    other languages, plurals). A key two ids share keeps the first."""

    def __init__(self, spellings: Mapping[str, Iterable[str]]) -> None:
        self._ids: dict[str, str] = {}
        for name, words in spellings.items():
            for word in (name, *words):
                self._ids.setdefault(name_key(word), name)

    def find(self, text: str) -> str | None:
        """The id ``text`` spells, or None: also an English plural of a name ("eggs")."""
        key = name_key(text)
        found = self._ids.get(key)
        if found is None and key.endswith("s"):
            found = self._ids.get(key[:-1])
        return found

    def nearest(self, text: str) -> tuple[str, ...]:
        """The ids nearest to ``text``, the closest first (none for a far miss)."""
        close = difflib.get_close_matches(name_key(text), self._ids, n=SUGGESTIONS * 3)
        return tuple(dict.fromkeys(self._ids[key] for key in close))[:SUGGESTIONS]

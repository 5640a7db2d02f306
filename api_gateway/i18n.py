"""Answers in the caller's language: English (the default) or French.

``Accept-Language`` picks the language (werkzeug's parsed header, best match of
:data:`LANGUAGES`); every answer then says which it used (``Content-Language``) and that
it depends on the header (``Vary: Accept-Language``). The words come from the sentences'
codes and params (:mod:`tabletop_rules.messages`): English is the templates themselves,
French the gettext catalog ``translations/fr/LC_MESSAGES/messages.po``, read with Babel
when the gateway starts (no compiled ``.mo``, so a fresh clone needs no build step). Each
entry's context is a template's key (its code), its id the English template; the games'
words (ingredients, goods, sides, phases, actions) are entries of context ``term``, their
forms for one and for many separated by ``|``.

``python -m api_gateway.i18n`` brings the catalog up to date with the templates the code
declares (new entries untranslated, entries no template uses dropped, translations kept).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from flask import Flask, Response, has_request_context, request
from google.protobuf.message import Message
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from referee.common.v1 import params_pb2
from tabletop_rules.downtown_farmers_market import INGREDIENTS, Action
from tabletop_rules.foxglove_farm.game_state import GamePhase
from tabletop_rules.foxglove_farm.model import GOODS, SIDES
from tabletop_rules.messages import ENGLISH, TEMPLATES, Language, Param, Params, Template, find, render
from tabletop_rules.names import Names

from .headers import parsed_once, vary

LANGUAGES = ("en", "fr")
"""The languages answers are given in, the default first."""

CATALOGS = Path(__file__).with_name("translations")
DOMAIN = "messages"
TERM = "term"
"""The context of the games' words in the catalogs."""

TERMS = (*[i.value for i in INGREDIENTS], *[g.value for g in GOODS], *[s.value for s in SIDES],
         *[p.value for p in GamePhase], *[a.value for a in Action])
"""The words templates name with the ``term`` filter: each game's ingredients, goods,
sides, phases and actions, from the games' own enums."""

ELIDED = ("a", "e", "é", "è", "ê", "i", "o", "ô", "u", "œ", "h")
"""French elides "de" before these (a mute h included: none of the games' words starts
with an aspirated one)."""


def catalog_path(tag: str) -> Path:
    return CATALOGS / tag / "LC_MESSAGES" / f"{DOMAIN}.po"


class Translation:
    """A language whose templates and words a gettext catalog translates."""

    def __init__(self, tag: str, catalog: Catalog) -> None:
        self.tag = tag
        self.catalog = catalog
        self.locale = Locale.parse(tag)

    def translated(self, english: str, context: str) -> str | None:
        entry = self.catalog.get(english, context=context)
        found = entry.string if entry is not None else None  # a tuple if plural: none is
        return found if isinstance(found, str) and found else None

    def text(self, template: Template) -> str:
        return self.translated(template.english, template.key) or template.english

    def plural(self, n: int) -> int:
        return 0 if self.locale.plural_form(abs(n)) == "one" else 1

    def term(self, word: str, n: int) -> str:
        forms = self._forms(word)
        return forms[min(self.plural(n), 1, len(forms) - 1)]

    def _forms(self, word: str) -> list[str]:
        """A word's entry: its forms for one and for many, then (French) its gender."""
        return (self.translated(word, TERM) or word).split("|")

    def filter(self, name: str, text: str) -> str:
        if self.tag != "fr":
            raise KeyError(f"no filter {name!r} in {self.tag}")
        elided = text[:1].lower() in ELIDED
        if name == "de":  # "de pain", "d'œuf"
            return f"d'{text}" if elided else f"de {text}"
        if name == "le":  # "le pain", "la carotte", "l'œuf"
            feminine = self._genders().get(text) == "f"
            return f"l'{text}" if elided else f"la {text}" if feminine else f"le {text}"
        raise KeyError(f"no filter {name!r} in {self.tag}")

    @cache  # noqa: B019  (one Translation per language, made once)
    def _genders(self) -> dict[str, str]:
        """Each word's gender, by its forms (from the terms' third field)."""
        genders = {}
        for word in TERMS:
            forms = self._forms(word)
            if len(forms) > 2:
                genders.update({form: forms[2] for form in forms[:2]})
        return genders


@cache
def translation(tag: str) -> Language:
    """The language ``tag`` (one of :data:`LANGUAGES`), its catalog read once."""
    if tag == ENGLISH.tag:
        return ENGLISH
    with catalog_path(tag).open("rb") as po:
        return Translation(tag, read_po(po, locale=tag))


def term_names(words: Iterable[str]) -> Names:
    """Game words (ingredients, goods) by every spelling a player may type: the word, and
    its forms for one and for many in each language of :data:`LANGUAGES` ("œuf", "œufs")."""
    languages = [translation(tag) for tag in LANGUAGES]
    return Names({word: [language.term(word, n) for language in languages for n in (1, 2)]
                  for word in words})


def negotiate() -> str:
    """The language of this request's answer: the best match of its Accept-Language
    (the default without one, as most API clients call)."""
    if not has_request_context():
        return ENGLISH.tag
    accepted = request.environ.get("HTTP_ACCEPT_LANGUAGE")
    return _best_language(accepted) if accepted else LANGUAGES[0]


@parsed_once
def _best_language(accepted: str) -> str:
    """werkzeug's best match of :data:`LANGUAGES` for an Accept-Language value (what
    ``request.accept_languages`` reads)."""
    return str(parse_accept_header(accepted, LanguageAccept).best_match(LANGUAGES,
                                                                       LANGUAGES[0]))


def current() -> Language:
    return translation(negotiate())


def say(code: str, params: Params, namespace: str = "", *, fallback: str = "") -> str:
    """The sentence ``code`` names, worded in this request's language (``fallback`` for a
    code no template declares)."""
    made = find(code, namespace)
    return fallback if made is None else render(made, params, current())


def say_template(made: Template, **params: Param) -> str:
    """A gateway template's sentence in this request's language."""
    return render(made, params, current())


# -- answers: protobuf messages worded again in the request's language --------------

NAMESPACES = {"referee.downtown_farmers_market": "DFM", "referee.foxglove_farm": "FF"}
TEXT_FIELDS = ("explanation", "message")
JOINED_EFFECTS = "FF_PART_EFFECTS_JOINED"


def params_from_proto(params: Any) -> dict[str, Param]:
    """``referee.common.v1.Param`` messages as the params they carry."""
    return {name: tuple(value) if isinstance(value, list) else value
            for name, value in params_json(params).items()}


def params_json(params: Any) -> dict[str, str | int | bool | list[str | int | bool]]:
    """``referee.common.v1.Param`` messages as an answer writes them (a list param as a
    list). Every explanation line of an answer has its params, so this is a loop of its
    own: a ``ParamValue`` read inline (an unset one reads as ``text``'s default, ""), and
    each ``values`` container taken once (upb builds one on every access)."""
    out: dict[str, str | int | bool | list[str | int | bool]] = {}
    for param in params:
        values = param.values
        if param.list:
            out[param.name] = [getattr(v, v.WhichOneof("kind") or "text") for v in values]
        else:
            value: params_pb2.ParamValue = values[0]
            out[param.name] = getattr(value, value.WhichOneof("kind") or "text")
    return out


def localize(answer: Message) -> Message:
    """``answer`` with every explanation and message worded in the request's language
    (unchanged, and not walked, in English)."""
    language = current()
    if language is not ENGLISH:
        package = answer.DESCRIPTOR.full_name.rsplit(".", 2)[0]
        _reword(answer, language, NAMESPACES.get(package, ""))
    return answer


def _reword(message: Message, language: Language, namespace: str) -> None:
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        if field.is_repeated:
            if field.message_type.GetOptions().map_entry:
                continue
            for item in value:
                _reword(item, language, namespace)
        else:
            _reword(value, language, namespace)
    fields = message.DESCRIPTOR.fields_by_name
    if "code" not in fields or not getattr(message, "code"):
        return
    text = next((name for name in TEXT_FIELDS if name in fields), None)
    made = find(message.code, namespace)  # type: ignore[attr-defined]
    if text is None or made is None:
        return
    params = params_from_proto(message.params)  # type: ignore[attr-defined]
    if "effects" in made.fields(ENGLISH):  # an entry words its effects, already reworded
        joined = find(JOINED_EFFECTS)
        assert joined is not None
        params["effects"] = language.text(joined).join(
            [effect.explanation for effect in message.effects])  # type: ignore[attr-defined]
    setattr(message, text, render(made, params, language))


def content_language(app: Flask) -> None:
    """Every answer of ``app`` names its language and varies with Accept-Language."""

    @app.after_request
    def name_language(response: Response) -> Response:
        response.headers["Content-Language"] = negotiate()
        vary(response, "Accept-Language")
        return response


# -- the catalogs ------------------------------------------------------------------

def entries() -> Iterator[tuple[str, str]]:
    """Every (context, English) a catalog translates: the templates, then the terms."""
    for key, made in sorted(TEMPLATES.items()):
        yield key, made.english
    for word in TERMS:
        yield TERM, word


def updated(old: Catalog, tag: str) -> Catalog:
    """A catalog holding :func:`entries`, each with ``old``'s translation if it has one."""
    new = Catalog(locale=tag, project="tabletop-referee", domain=DOMAIN, fuzzy=False,
                  header_comment="# The referee's sentences and words in one language: "
                                 "api_gateway/i18n.py explains the entries.")
    for context, english in entries():
        known = old.get(english, context=context)
        new.add(english, known.string if known is not None else "", context=context)
    return new


def main() -> None:
    """Bring each catalog up to date with the templates the code declares."""
    import engine_service.server  # noqa: F401  (declares every template the engine says)
    from . import create_app
    create_app()  # declares the gateway's own
    for tag in LANGUAGES[1:]:
        path = catalog_path(tag)
        old = read_po(path.open("rb"), locale=tag) if path.exists() else Catalog(locale=tag)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as po:
            write_po(po, updated(old, tag), width=100, omit_header=False, sort_output=False,
                     include_previous=False)
        missing = [m.id for m in updated(old, tag) if m.id and not m.string]
        print(f"{path}: {len(missing)} untranslated", file=sys.stderr)


if __name__ == "__main__":
    main()

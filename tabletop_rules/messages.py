"""Sentences for people that machines can read too: a stable code, its params, the words.

Every explanation, violation and problem the referee words is a :class:`Sentence`: a
``str`` holding the English words (as answers have always given them) that also carries a
stable ``code`` (SCREAMING_SNAKE_CASE, namespaced by game where game-specific:
``DFM_MAJORITY_MET``) and the ``params`` the words interpolate (a flat mapping of names to
strings, numbers, booleans or tuples of those), so an app can word it itself and the
gateway can say it in the caller's language (``api_gateway/i18n.py``).

Each code's English :class:`Template` is declared once, beside the code that says it
(:func:`template`), and registered in :data:`TEMPLATES`: the gettext catalogs translate
those templates (the template's key is the catalog entry's context, its English its id),
and a test checks that every registered template has its French.

A template is ``str.format`` text whose fields name params, with filters after a colon:

* ``{count}``: the value as it is (a number in digits; a list joined by ", ");
* ``{points:# point|# points}``: the form the language's plural rule picks for the
  number (a list counts its items), ``#`` standing for it;
* ``{ingredient:term}``: a game word (an ingredient, a good, a side...) in the language,
  each item of a list; ``{good:term=held}`` inflects it for the count ``held``;
* ``{ingredients:term,and}``, ``{ingredients:term,or}``: a list as "a, b and c";
* ``{count:times}``: "once", "twice", "3 times";
* ``{set:+}``: a list joined by "+";
* other filters are the language's own (French's ``de``: "de pain", "d'œuf").

A template may ``derive`` fields from its params (a list of fragments, each worded by
another template), so lists of findings stay translatable piece by piece.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, TypeAlias

Scalar: TypeAlias = str | int | bool
Param: TypeAlias = Scalar | tuple[Scalar, ...]
Params: TypeAlias = Mapping[str, Param]

NO_PARAMS: Params = MappingProxyType({})

Rendering = Callable[[Mapping[str, Any]], str]
"""A template's text compiled for one language: its words for the values given."""


class Language(Protocol):
    """What rendering asks of a language: its templates, plural rule and vocabulary."""

    tag: str

    def text(self, template: Template) -> str:
        """``template``'s text in this language."""
        ...

    def plural(self, n: int) -> int:
        """The index of the plural form for ``n`` (English and French: 0 one, 1 other)."""
        ...

    def term(self, word: str, n: int) -> str:
        """A game word (``"bread"``) in this language, inflected for ``n``."""
        ...

    def filter(self, name: str, text: str) -> str:
        """A filter of the language's own (``de``); KeyError for an unknown one."""
        ...


class English:
    """The templates as written: English, the default."""

    tag = "en"

    def text(self, template: Template) -> str:
        return template.english

    def plural(self, n: int) -> int:
        return 0 if abs(n) == 1 else 1

    def term(self, word: str, n: int) -> str:
        return word

    def filter(self, name: str, text: str) -> str:
        raise KeyError(name)


ENGLISH = English()

Derive = Callable[[Mapping[str, Any], "Say"], Mapping[str, str]]
"""Fields a template derives from its params (which it reads as it knows them to be)."""


@dataclass(frozen=True, eq=False)
class Template:
    """One sentence (or a fragment of one) in English, with its stable ``code``.

    ``key`` names it in the catalogs: the code itself, or ``namespace:code`` where one code
    is worded differently by each game (the violations' reasons, shared by both games).
    ``part`` marks a fragment that only other templates use (no answer carries its code).
    """

    code: str
    english: str
    key: str
    derive: Derive | None = None
    part: bool = False
    kind: str = "problem"
    """What says it: an ``explanation`` (a score's), a ``violation`` (a move's, its code
    the reason), a ``problem`` (a request's, a 422 detail) or a ``part`` of another."""
    renderings: dict[str, Rendering] = field(default_factory=dict, repr=False, compare=False)
    """Its text compiled (:func:`_compiled`), by language tag, once."""

    def __call__(self, **params: Param) -> Sentence:
        """The English sentence for ``params``, carrying its code and params."""
        frozen = MappingProxyType(params)
        return Sentence(render(self, frozen), self.code, frozen)

    def later(self, **params: Param) -> Wording:
        """The sentence for ``params``, worded in English only when it is first read
        (:meth:`Wording.sentence`): for verdicts made by the thousand whose words few
        answers read (a score's total needs none)."""
        return Wording(self, params)

    def given(self, derived: Mapping[str, str], **params: Param) -> Sentence:
        """:meth:`__call__` with the English of the fields ``derive`` makes already at
        hand (a challenge words its sets once, not on every line it judges): the same
        sentence, made without deriving them again."""
        frozen = MappingProxyType(params)
        text = _wording(self, ENGLISH)({**params, **derived})
        return Sentence(text, self.code, frozen)

    def fields(self, language: Language = ENGLISH) -> frozenset[str]:
        """The fields the template's text in ``language`` names."""
        return frozenset(name for _, name, _ in _parsed(language.text(self)) if name)


TEMPLATES: dict[str, Template] = {}
"""Every template by key: what the catalogs translate and the OpenAPI document lists."""


def template(code: str, english: str, *, namespace: str = "", derive: Derive | None = None,
             part: bool = False, kind: str = "") -> Template:
    """Declare (once) and register the template for ``code``: a ``problem``'s unless
    ``kind`` says otherwise, a ``violation``'s when it has a ``namespace``."""
    key = f"{namespace}:{code}" if namespace else code
    kind = "part" if part else kind or ("violation" if namespace else "problem")
    made = Template(code, english, key, derive, part, kind)
    known = TEMPLATES.get(key)
    if known is not None and (known.english, known.derive) != (english, derive):
        raise ValueError(f"template {key} is declared twice, differently")
    TEMPLATES[key] = made
    return made


def part(key: str, english: str) -> Template:
    """A fragment other templates word their lists with."""
    return template(key, english, part=True)


def find(code: str, namespace: str = "") -> Template | None:
    """The template an answer's ``code`` names, in a game's ``namespace`` first."""
    return (namespace and TEMPLATES.get(f"{namespace}:{code}")) or TEMPLATES.get(code)


class Sentence(str):
    """Words for people (English) that carry their ``code`` and ``params``."""

    code: str
    params: Params

    def __new__(cls, text: str, code: str, params: Params = NO_PARAMS) -> Sentence:
        said = super().__new__(cls, text)
        said.code = code
        said.params = params
        return said

    def __reduce__(self) -> tuple[Any, ...]:
        return (Sentence, (str(self), self.code, dict(self.params)))


class Wording:
    """A sentence not worded yet: its template and params, with the ``code`` and
    ``params`` a :class:`Sentence` carries; :meth:`text` words it in English, once, and
    :meth:`sentence` makes the :class:`Sentence` of those words. Equal to another for the
    same template and params (the words follow from them)."""

    __slots__ = ("template", "_params", "_text", "_sentence")

    def __init__(self, made: Template, params: dict[str, Param]) -> None:
        self.template = made
        self._params = params  # its own (a call's keyword arguments), never changed
        self._text: str | None = None
        self._sentence: Sentence | None = None

    @property
    def code(self) -> str:
        return self.template.code

    @property
    def params(self) -> Params:
        return MappingProxyType(self._params)

    def text(self) -> str:
        """The English words, as a plain ``str``, worded the first time they are asked
        for (what writes them out with the code and params beside them needs no more)."""
        text = self._text
        if text is None:
            text = self._text = render(self.template, self._params)
        return text

    def sentence(self) -> Sentence:
        """The English :class:`Sentence`, made the first time it is asked for."""
        said = self._sentence
        if said is None:
            said = self._sentence = Sentence(self.text(), self.template.code,
                                             MappingProxyType(self._params))
        return said

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Wording({self.template.key!r}, {self._params!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Wording):
            return self.template is other.template and self._params == other._params
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.template.key, tuple(self._params.items())))


class Say:
    """Renders fragments in one language, for a template's ``derive``."""

    __slots__ = ("language",)

    def __init__(self, language: Language) -> None:
        self.language = language

    def __call__(self, fragment: Template, **params: Param) -> str:
        return render(fragment, params, self.language)

    def join(self, items: list[str] | tuple[str, ...], conjunction: Template | None = None
             ) -> str:
        """``items`` as "a, b and c" (``conjunction``: :data:`AND` by default)."""
        return _joined(items, conjunction or AND, self.language)


def choice(code: str, pick: Callable[[Params], str], *, namespace: str = "",
           **wordings: str) -> Template:
    """A sentence worded one of several ways (``wordings``, by name), the way ``pick``
    chooses from its params: one code, each way a fragment of its own in the catalogs."""
    key = f"{namespace}:{code}" if namespace else code
    ways = {name: part(f"{key}.{name}", english) for name, english in wordings.items()}

    def derive(params: Params, say: Say) -> dict[str, str]:
        return {"wording": say(ways[pick(params)], **params)}
    derive.__qualname__ = f"choice_{key}"
    return template(code, "{wording}", namespace=namespace, derive=derive)


AND = part("LIST_AND", "{items} and {last}")
OR = part("LIST_OR", "{items} or {last}")
ONCE = part("TIMES_ONCE", "once")
TWICE = part("TIMES_TWICE", "twice")
TIMES = part("TIMES_N", "{count} times")
NOTHING = part("GOODS_NONE", "nothing")
LABEL = part("BUILDING_AT", "{building} at row {row}, col {col}")
SEPARATOR = ", "


def _joined(items: list[str] | tuple[str, ...], conjunction: Template, language: Language
            ) -> str:
    if len(items) <= 1:
        return "".join(items)
    return render(conjunction, {"items": SEPARATOR.join(items[:-1]), "last": items[-1]},
                  language)


_PARSED: dict[str, tuple[tuple[str, str | None, str], ...]] = {}


def _parsed(text: str) -> tuple[tuple[str, str | None, str], ...]:
    """``text`` as (literal, field, filters) parts, parsed once."""
    parts = _PARSED.get(text)
    if parts is None:
        parts = _PARSED[text] = tuple(
            (literal, name, spec or "")
            for literal, name, spec, _ in string.Formatter().parse(text))
    return parts


_COMPILED: dict[tuple[str, str], Rendering] = {}


def _compiled(text: str, language: Language) -> Rendering:
    """``text`` made into a function of the values, for ``language``, once: Python code
    concatenating its literals and fields, each field worded by one helper chosen in
    advance (a sentence is worded for every line of every board scored, so wording should
    cost about what an f-string does)."""
    made = _COMPILED.get((language.tag, text))
    if made is None:
        helpers: dict[str, Any] = {}
        pieces = []
        for literal, name, spec in _parsed(text):
            if literal:
                pieces.append(repr(literal))
            if name is not None:
                helper, arguments = _field_code(spec, language)
                key = f"_h{len(helpers)}"
                helpers[key] = helper
                pieces.append(f"{key}(v[{name!r}]{arguments})")
        source = f"def render(v):\n    return {' + '.join(pieces) or repr('')}\n"
        exec(compile(source, f"<template {text[:40]!r}>", "exec"), helpers)  # noqa: S102
        made = _COMPILED[(language.tag, text)] = helpers["render"]
    return made


def _field_code(spec: str, language: Language) -> tuple[Callable[..., str], str]:
    """The helper wording a field with the filters ``spec`` in ``language``, and what
    else it is called with (the values, for a filter that reads another field)."""
    if not spec:
        return _text, ""
    if "|" in spec:
        forms = tuple(tuple(form.split("#", 1)) if "#" in form else (form,)
                      for form in spec.split("|"))
        last, plural = len(forms) - 1, language.plural
        if language is ENGLISH and last == 1 and all(len(form) == 2 for form in forms):
            (one, ones), (other, others) = forms

            def english(value: Any) -> str:
                n = value if type(value) is int else len(value)
                return f"{one}{n}{ones}" if n == 1 or n == -1 else f"{other}{n}{others}"
            return english, ""

        def by_number(value: Any) -> str:
            n = value if type(value) is int else len(value)
            form = forms[min(plural(n), last)]
            return form[0] if len(form) == 1 else f"{form[0]}{n}{form[1]}"
        return by_number, ""
    if spec == "times":
        once, twice = language.text(ONCE), language.text(TWICE)
        times = _compiled(language.text(TIMES), language)
        return (lambda n: once if n == 1 else twice if n == 2 else times({"count": n})), ""
    names = spec.split(",")
    if language is ENGLISH:  # English words are the terms themselves
        names = [name for name in names if name != "term"]
    steps = [_step(step, language) for step in names]
    if not steps:
        return _text, ""
    if len(steps) == 1:
        only = steps[0]
        return (lambda value, values: _text(only(value, values))), ", v"

    def filtered(value: Any, values: Mapping[str, Any]) -> str:
        for step in steps:
            value = step(value, values)
        return _text(value)
    return filtered, ", v"


def _text(value: Any) -> str:
    if type(value) is str:
        return value
    return SEPARATOR.join(map(str, value)) if isinstance(value, tuple | list) else str(value)


def _step(step: str, language: Language) -> Callable[[Any, Mapping[str, Any]], Any]:
    """One filter of a field, for ``language``."""
    name, _, argument = step.partition("=")
    if name == "term":
        term = language.term
        if argument:
            return lambda value, values: _each(value, term, int(values[argument]))
        return lambda value, values: _each(value, term, 1)
    if name in ("and", "or"):
        conjunction = AND if name == "and" else OR
        return lambda value, values: _joined([str(item) for item in value], conjunction,
                                             language)
    if name == "+":
        return lambda value, values: "+".join(map(str, value))
    if name == "tiles":  # Food tiles as "corn+egg": each ingredient in the language
        return lambda value, values: _each(value, lambda tile, n: "+".join(
            [language.term(i, 1) for i in tile.split("+")]), 1)
    if name == "goods":  # goods as ("2 wood", "1 coal"): "2 wood and 1 coal"
        def bundle(value: Any, values: Mapping[str, Any]) -> str:
            if not value:
                return _wording(NOTHING, language)({})
            counted = [(n, good) for n, good in (item.split(" ", 1) for item in value)]
            return _joined([f"{n} {language.term(good, int(n))}" for n, good in counted],
                           AND, language)
        return bundle
    if name == "bundles":  # goods bundles as ("2 wood+1 coal", "5 sheep"): "...; 5 sheep"
        goods = _step("goods", language)
        return lambda value, values: "; ".join(
            [goods(tuple(bundle.split("+")) if bundle else (), values) for bundle in value])
    if name == "label":  # a building as (name, row, col): "Butcher at row 1, col 2"
        return lambda value, values: _wording(LABEL, language)(
            {"building": value[0], "row": value[1], "col": value[2]})
    if name == "labels":  # buildings as (name, row, col, name, row, col...)
        return lambda value, values: SEPARATOR.join(
            [_wording(LABEL, language)({"building": value[k], "row": value[k + 1],
                                        "col": value[k + 2]}) for k in range(0, len(value), 3)])
    return lambda value, values: ([language.filter(name, str(item)) for item in value]
                                  if isinstance(value, tuple | list)
                                  else language.filter(name, _text(value)))


def _each(value: Any, term: Callable[[str, int], str], n: int) -> Any:
    if isinstance(value, tuple | list):
        return [term(str(item), n) for item in value]
    return term(str(value), n)


def render(made: Template, params: Params, language: Language = ENGLISH) -> str:
    """``made``'s words in ``language`` for ``params``."""
    if made.derive is not None:
        params = {**params, **made.derive(params, Say(language))}
    return _wording(made, language)(params)


def _wording(made: Template, language: Language) -> Rendering:
    """``made``'s text in ``language``, compiled once."""
    wording = made.renderings.get(language.tag)
    if wording is None:
        wording = made.renderings[language.tag] = _compiled(language.text(made), language)
    return wording

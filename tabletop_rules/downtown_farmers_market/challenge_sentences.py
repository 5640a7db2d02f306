"""The sentences a Challenge type's verdict says, one met and one or more not met a type,
each ending in the outcome: ": met, 4 points" or ": not met, 0 points".

Their codes and params are the contract's (``docs/contract.md``); the gateway words them
in the answer's language. Made by the types of :mod:`.challenges`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..messages import Say, part, template

_WANTED = part("DFM_PART_EXACTLY", "{ingredient:term} exactly {count:times}")
_APPEARS = part("DFM_PART_APPEARS", "{ingredient:term} appears {count:times}")
_ABSENT = part("DFM_PART_ABSENT", "there is no {ingredient:term}")
_SET_OR = part("DFM_PART_SETS_OR", " or ")
"""What stands between two sets shown: "bread+milk or egg"."""


def _wanted(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """ExactCount: "bread exactly twice, milk exactly once"."""
    pairs = zip(params["ingredients"], params["counts"])
    return {"wanted": ", ".join([say(_WANTED, ingredient=i, count=n) for i, n in pairs])}


def _exact_found(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """ExactCount, not met: what the line shows of each ingredient not as wanted."""
    found = [say(_APPEARS, ingredient=i, count=have) if have else say(_ABSENT, ingredient=i)
             for i, n, have in zip(params["ingredients"], params["counts"],
                                   params["seen"]) if have != n]
    return {**_wanted(params, say), "found": ", ".join(found)}


def _forbidden_found(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """Forbidden, not met: each forbidden ingredient present, and how often."""
    return {"found": ", ".join([say(_APPEARS, ingredient=i, count=n) for i, n in zip(
        params["ingredients"], params["seen"]) if n])}


def _sets_shown(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """PerSet: the sets shown, "bread+milk or egg", each ingredient in the language:
    worded once for each challenge tile and language (there is one language a tag)."""
    language = say.language
    key = (params["sets"], language.tag)
    shown = _SHOWN.get(key)
    if shown is None:
        if len(_SHOWN) >= 1024:
            _SHOWN.clear()
        shown = _SHOWN[key] = language.text(_SET_OR).join(
            ["+".join([language.term(i, 1) for i in s.split("+")]) for s in params["sets"]])
    return {"shown": shown}


_SHOWN: dict[tuple[tuple[str, ...], str], str] = {}


EXACT_COUNT_MET = template(
    "DFM_EXACT_COUNT_MET", "Needs {wanted}, and so it is: met, {points:# point|# points}",
    derive=_wanted, kind="explanation")
EXACT_COUNT_NOT_MET = template(
    "DFM_EXACT_COUNT_NOT_MET", "Needs {wanted}; {found}: not met, 0 points",
    derive=_exact_found, kind="explanation")
FORBIDDEN_MET = template(
    "DFM_FORBIDDEN_MET", "No {ingredients:term,or} on the line: met, {points:# point|# points}", kind="explanation")
FORBIDDEN_BROKEN = template(
    "DFM_FORBIDDEN_BROKEN", "No {ingredients:term,or} allowed; {found}: not met, 0 points",
    derive=_forbidden_found, kind="explanation")
CHOICE_MET = template(
    "DFM_EXACT_COUNT_ANY_MET",
    "One ingredient of your choice exactly {count:times}; {ingredients:term,and} "
    "{ingredients:appears|appear} {count:times}: met, {points:# point|# points}", kind="explanation")
CHOICE_NOT_MET = template(
    "DFM_EXACT_COUNT_ANY_NOT_MET",
    "One ingredient of your choice exactly {count:times}; no ingredient appears "
    "{count:times}: not met, 0 points", kind="explanation")
TOTAL_MET = template(
    "DFM_EXACT_TOTAL_MET", "Needs exactly {count} ingredients in all; the line holds "
    "{total}: met, {points:# point|# points}", kind="explanation")
TOTAL_NOT_MET = template(
    "DFM_EXACT_TOTAL_NOT_MET", "Needs exactly {count} ingredients in all; the line holds "
    "{total}: not met, 0 points", kind="explanation")
ALL_SIX_MET = template(
    "DFM_ONE_OF_EACH_MET", "All six ingredients appear: met, {points:# point|# points}", kind="explanation")
ALL_SIX_NOT_MET = template(
    "DFM_ONE_OF_EACH_NOT_MET", "Needs all six ingredients; {missing:term,and} "
    "{missing:is|are} missing: not met, 0 points", kind="explanation")
MAJORITY_MET = template(
    "DFM_MAJORITY_MET", "A majority of {ingredient:term}: {ingredient:term} appears "
    "{count:times}, more than any other ingredient: met, {points:# point|# points}", kind="explanation")
MAJORITY_ABSENT = template(
    "DFM_MAJORITY_ABSENT", "A majority of {ingredient:term}: there is no {ingredient:term} on "
    "the line: not met, 0 points", kind="explanation")
MAJORITY_TIED = template(
    "DFM_MAJORITY_TIED", "A majority of {ingredient:term}: {ingredient:term} and "
    "{rival:term} both appear {count:times}, and a tie is no majority: not met, 0 points", kind="explanation")
MAJORITY_BEATEN = template(
    "DFM_MAJORITY_BEATEN", "A majority of {ingredient:term}: {ingredient:term} appears "
    "{count:times} but {rival:term} {rival_count:times}: not met, 0 points", kind="explanation")
PER_SET_MET = template(
    "DFM_PER_SET_MET", "{set_points:# point|# points} per {shown}; {formed:# set|# sets} "
    "formed: met, {points:# point|# points}", derive=_sets_shown, kind="explanation")
PER_SET_NOT_MET = template(
    "DFM_PER_SET_NOT_MET", "{set_points:# point|# points} per {shown}; "
    "{formed:# set|# sets} formed: not met, 0 points", derive=_sets_shown, kind="explanation")

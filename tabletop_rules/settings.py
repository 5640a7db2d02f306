"""A setting read from the environment, declared once beside the code that reads it:
its name, its default and what it means. The documentation's configuration page is
generated from these declarations (``docs/hooks.py``), so no setting is left out of it.

Standard library only, like the rest of what the installer and ``deploy/run.py`` import
before the project's dependencies are installed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    name: str
    default: object
    """The value when the variable is not set; None or "": unset (``meaning`` says what
    that does)."""
    meaning: str
    flag: str | None = None
    """The command-line flag that overrides it, if any."""

    def get(self, environ: Mapping[str, str] = os.environ) -> str:
        """The variable's value in ``environ``, else the default as text ("" if none)."""
        default = "" if self.default is None else str(self.default)
        return environ.get(self.name, default)

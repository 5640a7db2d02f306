"""Compiles the hot modules with mypyc as the project is built (``pip install .``, the
image's builder stage, ``deploy/bootstrap.py``): the modules :data:`COMPILED` names (the
Downtown Farmers Market and Foxglove Farm rules and the engine's reading and writing of
them) run 1.2 to 2 times as fast compiled (docs/performance.md). Without a C compiler and
Python's headers, or with ``REFEREE_COMPILE=0``, nothing is compiled: the sources run, as
they do wherever ``deploy/compiled.py`` finds a compiled module older than its source.
Everything else about the project is in pyproject.toml.
"""

import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).resolve().parent))
from deploy.compiled import COMPILED, compiling_wanted  # noqa: E402


def compiled_extensions() -> list:
    if not compiling_wanted():
        print("setup.py: not compiling the hot modules (REFEREE_COMPILE=0, or no C "
              "compiler or Python headers here): the sources will run")
        return []
    from mypyc.build import mypycify

    # An isolated build has none of the project's dependencies: what they are is no
    # matter to the compiled code, which calls them as any Python code would.
    return mypycify(["--ignore-missing-imports", *COMPILED], opt_level="3")


setup(ext_modules=compiled_extensions())

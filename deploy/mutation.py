"""Mutation testing of the rules core: ``python3 deploy/mutation.py [mutmut run args]``.

mutmut changes one thing at a time in the modules that decide verdicts, scores and
standings (``[tool.mutmut] only_mutate`` in pyproject.toml) and runs the rules' tests
against each change; a change no test notices (a surviving mutant) is a test to write,
or a text-only or equivalent change to list. It works in ``mutants/`` (a copy, ignored
by git) and remembers results between runs; ``.venv/bin/mutmut show NAME`` prints a
mutant, ``.venv/bin/mutmut results`` lists the survivors again. It takes about 20
minutes on 2 cores.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from deploy.bootstrap import REPO_ROOT, ensure_environment  # noqa: E402


def main() -> int:
    python = ensure_environment(extras=("test",))
    mutmut = [str(python), "-m", "mutmut"]
    # The mutants are in the sources: the compiled modules (setup.py) would run unchanged.
    env = {**os.environ, "REFEREE_PURE_PYTHON": "1"}
    subprocess.run([*mutmut, "run", *sys.argv[1:]], cwd=REPO_ROOT, check=True, env=env)
    return subprocess.run([*mutmut, "results"], cwd=REPO_ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())

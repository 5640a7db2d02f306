"""Install what the tests need, then run them: ``python3 deploy/test.py [pytest args]``.

nginx too (``deploy/proxy.py``): the end-to-end tests run the service behind it, as the
quick start does; and redis-server, the store two gateways share their rate limits in
(tests/e2e/test_rate_limit_redis.py). The tests skip, saying why, only where these cannot
be installed. Without arguments it runs the whole suite in parallel twice: on the
sources, reporting line coverage, the engine and gateway processes the end-to-end tests
start included (``[tool.coverage]`` in pyproject.toml); then on the compiled modules the
service runs (``setup.py``), where this machine could compile them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from deploy.bootstrap import REPO_ROOT, ensure_environment  # noqa: E402
from deploy.packages import ensure_command  # noqa: E402
from deploy.proxy import ensure_nginx  # noqa: E402


def main() -> int:
    python = ensure_environment(extras=("test",))
    from tabletop_rules.compiled import PURE_PYTHON_VARIABLE, outdated_sources

    ensure_nginx()
    ensure_command("redis-server", "redis-server", who="test")
    env = dict(os.environ)
    if env.get("CI"):
        env.setdefault("HYPOTHESIS_PROFILE", "ci")
    if sys.argv[1:]:
        return _pytest(python, sys.argv[1:], env)
    # The whole suite twice: on the sources, where coverage sees every line, then on the
    # compiled modules the service runs (setup.py), where it cannot.
    failed = _pytest(python, ["-n", "auto", "--cov", "--cov-report=term"],
                     {**env, PURE_PYTHON_VARIABLE: "1"}, "on the sources")
    if not outdated_sources(REPO_ROOT):  # compiled (ensure_environment), where it could be
        failed = _pytest(python, ["-n", "auto"], env, "on the compiled modules") or failed
    return failed


def _pytest(python: Path, args: list[str], env: dict[str, str], run: str = "") -> int:
    if run:
        print(f"test: the whole suite {run}", flush=True)
    return subprocess.run([str(python), "-m", "pytest", *args], cwd=REPO_ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())

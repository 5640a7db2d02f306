"""Install what the tests need, then run them: ``python3 deploy/test.py [pytest args]``.

nginx too (``deploy/proxy.py``): the end-to-end tests run the service behind it, as the
quick start does; and redis-server, the store two gateways share their rate limits in
(tests/e2e/test_rate_limit_redis.py); and docker with a daemon, the image built
(``deploy/containers.py``, in the background while the project installs) and
docker-compose, for the container tests (tests/containers). The tests skip, saying why,
only where these cannot be installed. Without arguments it runs the whole suite in parallel twice: on the
sources, reporting line coverage, the engine and gateway processes the end-to-end tests
start included (``[tool.coverage]`` in pyproject.toml); then on the compiled modules the
service runs (``setup.py``), where this machine could compile them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from deploy import containers  # noqa: E402
from deploy.bootstrap import REPO_ROOT, ensure_environment  # noqa: E402
from deploy.packages import ensure_command  # noqa: E402
from deploy.proxy import ensure_nginx  # noqa: E402


def main() -> int:
    whole_suite = not sys.argv[1:]
    # Debian's packages first, one apt-get at a time.
    ensure_nginx()
    ensure_command("redis-server", "redis-server", who="test")
    image = _start_image_build() if whole_suite else None
    python = ensure_environment(extras=("test",))
    from deploy.compiled import PURE_PYTHON_VARIABLE, outdated_sources

    env = dict(os.environ)
    if env.get("CI"):
        env.setdefault("HYPOTHESIS_PROFILE", "ci")
    if not whole_suite:
        return _pytest(python, sys.argv[1:], env)
    if image:
        print(f"test: waiting for the image's build (log: {IMAGE_BUILD_LOG})", flush=True)
        image.wait()  # a failed build fails the container tests, which build it again
    # The whole suite twice: on the sources, where coverage sees every line, then on the
    # compiled modules the service runs (setup.py), where it cannot; the container tests
    # (the image's own build of the rules) in the first run only. One worker runs every
    # container test (--dist loadgroup), so they share one stack.
    parallel = ["-n", "auto", "--dist", "loadgroup"]
    failed = _pytest(python, [*parallel, "--cov", "--cov-report=term"],
                     {**env, PURE_PYTHON_VARIABLE: "1"}, "on the sources")
    if not outdated_sources(REPO_ROOT):  # compiled (ensure_environment), where it could be
        failed = _pytest(python, [*parallel, "-m", "not containers",
                                  *(f"--ignore={path}" for path in BUILD_INDEPENDENT)],
                         env, "on the compiled modules") or failed
    return failed


BUILD_INDEPENDENT = ("tests/docs", "tests/deploy", "tests/platform/test_typing.py",
                     "tests/platform/test_protos.py", "tests/e2e/test_score_pad.py",
                     "tests/e2e/test_pad_games.py", "tests/e2e/test_docs_browser.py")
"""What the run on the compiled modules leaves out: checks of files (the site, the
manifests, the types, the generated code) that no build of the rules can change, and the
pages in a browser, whose every answer the API's tests check on both builds."""

IMAGE_BUILD_LOG = Path(tempfile.gettempdir()) / "referee-image-build.log"


def _start_image_build() -> subprocess.Popen[bytes] | None:
    """``deploy/containers.py`` in the background: it installs docker, makes the bases and
    builds the image while this process installs the project, so the container tests find
    it built. None where containers cannot run here (the container tests then say why
    they skip)."""
    try:
        containers.ensure_docker()
    except containers.ContainersUnavailable as reason:
        print(f"test: no container tests: {reason}", file=sys.stderr, flush=True)
        return None
    for command, package in (("debootstrap", "debootstrap"), ("docker-compose", "docker-compose")):
        ensure_command(command, package, who="test")
    log = IMAGE_BUILD_LOG.open("wb")
    return subprocess.Popen([sys.executable, str(REPO_ROOT / "deploy" / "containers.py")],
                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def _pytest(python: Path, args: list[str], env: dict[str, str], run: str = "") -> int:
    if run:
        print(f"test: the whole suite {run}", flush=True)
    return subprocess.run([str(python), "-m", "pytest", *args], cwd=REPO_ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())

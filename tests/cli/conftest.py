"""The end-to-end tests' running service, for the command line's end-to-end tests: a
fixture comes from a conftest, where no test's parameter redefines an import."""

from ..e2e.conftest import service  # noqa: F401  (the fixture)

"""Children that a test stops with Ctrl-C (SIGINT) get it as a person's terminal gives it: at its default.

A process inherits an ignored SIGINT, and a shell script's background job (`.ci/run &`, `(pytest &)`) starts with
SIGINT ignored. Python then installs no KeyboardInterrupt handler, so every child of such a test run ignores the
test's Ctrl-C and the test waits in vain (issue 29: both Ctrl-C tests failed in every such run)."""

from __future__ import annotations

import signal


def sigint_at_default() -> None:
    """Popen's preexec_fn: SIGINT back to its default in the child, before it execs."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

"""Running a target for a number of inputs or a span of time, with counts of what happened to the inputs.

Hypothesis is the engine: it draws the inputs, and when a check fails it shrinks the input to a small one. For a
time budget the runner starts one hypothesis run after another, each from a fresh seed, until the time is up.
A watchdog (SIGALRM, where the platform has it) turns an input that takes longer than `hang_seconds` into a
failure, so a hang is reported like any other broken property.
"""

from __future__ import annotations

import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from hypothesis import HealthCheck, Verbosity, given, seed, settings

from p2pdurak.fuzz.target import FuzzFailure, Target

CHUNK = 250
"""Inputs per hypothesis run when running for a span of time."""


class Hang(FuzzFailure):
    """One input took longer than the watchdog allows."""


@dataclass
class Report:
    target: str
    inputs: int = 0
    seconds: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)
    failure: str | None = None
    failing_input: str | None = None  # repr of the (shrunk) input that broke the property
    failing_case: Any = None  # that input itself (to replay it: target.check(report.failing_case))

    def summary(self, top: int = 8) -> str:
        common = ", ".join(f"{label} {n}" for label, n in self.outcomes.most_common(top))
        status = "FAILED" if self.failure else "ok"
        return f"{self.target}: {status}, {self.inputs} inputs in {self.seconds:.1f} s ({common})"


class _Watchdog:
    def __init__(self, hang_seconds: float | None) -> None:
        self.hang_seconds = hang_seconds if hang_seconds and hasattr(signal, "setitimer") else None

    def _fire(self, signum: int, frame: FrameType | None) -> None:
        raise Hang(f"one input ran longer than {self.hang_seconds} s")

    def __enter__(self) -> _Watchdog:
        if self.hang_seconds is not None:
            signal.signal(signal.SIGALRM, self._fire)
        return self

    def arm(self) -> None:
        if self.hang_seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, self.hang_seconds)

    def disarm(self) -> None:
        if self.hang_seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def __exit__(self, *exc: object) -> None:
        self.disarm()
        if self.hang_seconds is not None:
            signal.signal(signal.SIGALRM, signal.SIG_DFL)


def run(
    target: Target,
    *,
    budget: int | None = None,
    seconds: float | None = None,
    start_seed: int = 0,
    derandomize: bool = False,
    hang_seconds: float | None = 30.0,
) -> Report:
    """Run `target` for `budget` inputs, or for about `seconds` (whichever is given; both: the first reached)."""
    if budget is None and seconds is None:
        raise ValueError("give a budget of inputs or of seconds")
    report = Report(target.name)
    strategy = target.cases()
    last: list[tuple[Any, str]] = []
    hung: list[tuple[Any, str]] = []  # the first input that hung: later inputs are skipped (no shrinking of hangs)

    with _Watchdog(hang_seconds) as watchdog:

        def one(case: Any) -> None:
            if hung:
                return
            report.inputs += 1
            watchdog.arm()
            try:
                report.outcomes[target.check(case)] += 1
            except Hang as exc:
                hung.append((case, str(exc)))
                raise
            except FuzzFailure as exc:
                last.append((case, str(exc)))
                raise
            finally:
                watchdog.disarm()

        began = time.monotonic()
        run_seed = start_seed
        while report.failure is None:
            left = None if budget is None else budget - report.inputs
            if left is not None and left <= 0:
                break
            if seconds is not None and time.monotonic() - began >= seconds:
                break
            examples = left if seconds is None else min(CHUNK, left or CHUNK)
            config = settings(
                max_examples=max(1, examples or 1),
                derandomize=derandomize and seconds is None,
                database=None,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                verbosity=Verbosity.quiet,
                print_blob=False,
            )
            test = config(given(strategy)(one))
            if not (derandomize and seconds is None):
                test = seed(run_seed)(test)
            try:
                test()
            except Exception as exc:  # a hang ends as hypothesis's Flaky: the hanging input no longer ran
                if hung:
                    report.failure, report.failing_input, report.failing_case = hung[0][1], repr(hung[0][0]), hung[0][0]
                elif isinstance(exc, FuzzFailure):
                    report.failure = str(exc)
                    if last:
                        report.failing_input, report.failing_case = repr(last[-1][0]), last[-1][0]
                else:
                    raise
            run_seed += 1
            if seconds is None:
                break
        report.seconds = time.monotonic() - began
    return report

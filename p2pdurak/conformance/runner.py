"""`p2pdurak conformance`: run every vector file of protocol/vectors/ against this implementation.

A file is dispatched on its name (the prefix says which layer wrote it) and then on its group types; a file that
no runner knows is a failure, never silently skipped. The `--peer COMMAND` mode of issue 7 (driving another
implementation over TCP) will add a second source of outcomes with the same CaseOutcome rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2pdurak.conformance.host import run_host_file
from p2pdurak.conformance.layers import run_groups, run_shuffle_file
from p2pdurak.conformance.messages import run_messages_file
from p2pdurak.conformance.net_vectors import run_net_file
from p2pdurak.conformance.transcripts import CaseOutcome, bases_of, run_tampered_file, run_valid_file
from p2pdurak.errors import DurakError

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"

Doc = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class FileReport:
    name: str
    outcomes: tuple[CaseOutcome, ...]
    error: str | None = None  # the file could not be run at all

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)

    @property
    def failed(self) -> int:
        return len(self.outcomes) - self.passed + (1 if self.error else 0)

    @property
    def ok(self) -> bool:
        return self.failed == 0 and bool(self.outcomes)


class VectorDir:
    """The vector files of one directory, loaded once each."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._docs: dict[str, Doc] = {}

    def names(self) -> list[str]:
        return sorted(p.name for p in self.directory.glob("*.json"))

    def load(self, name: str) -> Doc:
        if name not in self._docs:
            self._docs[name] = json.loads((self.directory / name).read_text(encoding="utf-8"))
        return self._docs[name]


def _wire(name: str, doc: Doc, vd: VectorDir) -> list[CaseOutcome]:
    from p2pdurak.conformance.wire_vectors import run

    return [CaseOutcome(name, o.tc_id, o.passed, o.detail, doc.get("spec", "")) for o in run(dict(doc))]


def _log(name: str, doc: Doc, vd: VectorDir) -> list[CaseOutcome]:
    from p2pdurak.conformance.log_vectors import run

    return [CaseOutcome(name, o.tc_id, o.passed, o.detail, doc.get("spec", "")) for o in run(dict(doc))]


def _wire_or_log(name: str, doc: Doc, vd: VectorDir) -> list[CaseOutcome]:
    types = {g["type"] for g in doc.get("testGroups", ())}
    return _wire(name, doc, vd) if types == {"CanonicalValue"} else _log(name, doc, vd)


def _transcripts(name: str, doc: Doc, vd: VectorDir) -> list[CaseOutcome]:
    types = {g["type"] for g in doc["testGroups"]}
    if types == {"Transcript"}:
        return run_valid_file(name, doc)
    return run_tampered_file(name, doc, bases_of(doc, vd.load))


def _peer(name: str, doc: Doc, vd: VectorDir) -> list[CaseOutcome]:
    types = {g["type"] for g in doc["testGroups"]}
    if types == {"HostValidation"}:
        return run_host_file(name, doc, bases_of(doc, vd.load))
    return run_messages_file(name, doc)


RUNNERS: dict[str, Callable[[str, Doc, VectorDir], list[CaseOutcome]]] = {
    "crypto-": lambda name, doc, vd: run_groups(name, doc),
    "rules-": lambda name, doc, vd: run_groups(name, doc),
    "shuffle-": lambda name, doc, vd: run_shuffle_file(name, doc),
    "wire-": _wire_or_log,
    "transcript-": _transcripts,
    "peer-": _peer,
    "net-": lambda name, doc, vd: run_net_file(name, doc),
}


def run_file(vd: VectorDir, name: str) -> FileReport:
    runner = next((r for prefix, r in RUNNERS.items() if name.startswith(prefix)), None)
    if runner is None:
        return FileReport(name, (), "no runner knows this file")
    try:
        doc = vd.load(name)
        outcomes = runner(name, doc, vd)
    except (ValueError, KeyError, TypeError, DurakError) as exc:  # a malformed file fails, it does not crash
        return FileReport(name, (), f"{type(exc).__name__}: {exc}")
    count = doc.get("numberOfTests")
    if count is not None and count != len(outcomes):
        return FileReport(name, tuple(outcomes), f"numberOfTests is {count}, ran {len(outcomes)}")
    return FileReport(name, tuple(outcomes))


def run_all(directory: Path = VECTOR_DIR, only: str | None = None) -> list[FileReport]:
    vd = VectorDir(directory)
    return [run_file(vd, name) for name in vd.names() if only is None or only in name]


def to_json(reports: list[FileReport]) -> dict[str, Any]:
    return {
        "passed": all(r.ok for r in reports) and bool(reports),
        "files": [
            {
                "file": r.name,
                "passed": r.passed,
                "failed": r.failed,
                "error": r.error,
                "failures": [
                    {"tcId": o.tc_id, "detail": o.detail, "spec": o.spec} for o in r.outcomes if not o.passed
                ],
            }
            for r in reports
        ],
    }

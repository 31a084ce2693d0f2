"""A seat tells its player, once per seat, when a mesh link has not come up after the grace period (R-GAME-18)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from p2pdurak.crypto.identity import Identity
from p2pdurak.netgame.seat import MESH_GRACE, MESH_UNLINKED, QuietListener, SeatRunner


class Recorder(QuietListener):
    def __init__(self) -> None:
        self.seen: list[tuple[str, int]] = []

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None:
        self.seen.append((kind, done))


class FakeMesh:
    def __init__(self) -> None:
        self.missing = [2, 3]

    def unlinked(self) -> list[int]:
        return list(self.missing)


class FakeClient:
    def __init__(self) -> None:
        self.mesh: Any = FakeMesh()


def test_a_missing_link_is_reported_once_after_the_grace(tmp_path: Path) -> None:
    recorder = Recorder()
    runner = SeatRunner(Identity.generate(), tmp_path, listener=recorder)
    client = FakeClient()
    runner.client = client  # type: ignore[assignment]
    runner._report_unlinked(100.0)
    runner._report_unlinked(100.0 + MESH_GRACE - 0.1)
    assert recorder.seen == []  # links take a moment to come up
    client.mesh.missing = [3]  # seat 2's link came up meanwhile
    runner._report_unlinked(100.0 + MESH_GRACE)
    runner._report_unlinked(200.0)
    assert recorder.seen == [(MESH_UNLINKED, 3)]
    client.mesh = None  # a seat without the mesh reports nothing
    runner._report_unlinked(300.0)
    assert recorder.seen == [(MESH_UNLINKED, 3)]

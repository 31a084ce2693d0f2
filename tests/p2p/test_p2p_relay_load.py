"""A relay under load (issue 24): `p2pdurak relay` on 127.0.0.1 carries six 3-seat tables at once, every connection
and mesh link through it, and each game verifies; a seventh table past its reservation limit (the six tables' 18
reservations outlive their games) is refused, and a table whose seats are refused reservations plays without its
mesh link. The CPU and memory figures are `p2pdurak bench relay`'s; none is asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pdurak.bench.relay import measure

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")


async def test_p2p_a_relay_carries_six_tables_and_refuses_past_its_reservations(tmp_path: Path) -> None:
    figures = await measure(tmp_path, tables=6, deck=24)
    failed = {k: v for k, v in figures.items() if k.endswith("_failed")}
    assert figures["relay_tables_ok"] == 6, failed
    assert figures["relay_past_limit_ok"] == 0
    assert "refused the host a reservation" in str(figures["relay_past_limit"])
    assert figures["relay_seats_refused"] == "played, but links 1-2 missing"

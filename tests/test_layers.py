"""The import-linter contracts of pyproject.toml hold for the package, and break when an import runs the wrong way.

Each case copies the package into a temporary directory, adds one bad import to a module, and runs `lint-imports`
there (it puts the working directory first on sys.path, so it reads the copy), so a contract that could never
fail would fail this test.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
CONTRACTS = [contract["name"] for contract in CONFIG["contracts"]]


def _broken(stdout: str) -> list[str]:
    """The names of the contracts the report calls BROKEN (it wraps long names over lines)."""
    report = " ".join(stdout.split())
    return [name for name in CONTRACTS if " ".join(name.split()) + " BROKEN" in report]


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "p2pdurak", tmp_path / "p2pdurak", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=where, capture_output=True, text=True, timeout=120)


def test_layers_the_package_keeps_every_contract(tmp_path: Path) -> None:
    done = _lint(_copy(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(CONTRACTS)} kept, 0 broken" in done.stdout


@pytest.mark.parametrize(
    ("module", "bad_import", "contract"),
    [
        ("rules/engine.py", "import trio", "the sans-IO core imports neither trio nor rich"),
        ("crypto/dleq.py", "import rich.text", "the sans-IO core imports neither trio nor rich"),
        ("peer/peer.py", "import p2pdurak.testing.log_fixtures", "only the command layer imports the tooling"),
        ("log/chain.py", "import p2pdurak.conformance.wire_vectors", "only the command layer imports the tooling"),
        ("netgame/session.py", "import p2pdurak.ui.terminal", "layers"),
        ("netgame/table.py", "import p2pdurak.bots.players", "layers"),
        ("rules/state.py", "import p2pdurak.crypto.group", "layers"),
        ("netgame/seat.py", "import rich", "the network layers draw nothing on a screen"),
        ("netgame/hosting.py", "import zeroconf", "only the network layer speaks mDNS and UPnP"),
        ("web/front.py", "import miniupnpc", "only the network layer speaks mDNS and UPnP"),
        ("net/mesh.py", "import libp2p", "only the libp2p transport"),
        ("netgame/table.py", "import multiaddr", "only the libp2p transport"),
    ],
)
def test_layers_a_wrong_import_breaks_a_contract(tmp_path: Path, module: str, bad_import: str, contract: str) -> None:
    where = _copy(tmp_path)
    path = where / "p2pdurak" / module
    text = path.read_text(encoding="utf-8")
    anchor = "from __future__ import annotations\n"
    assert anchor in text
    path.write_text(text.replace(anchor, f"{anchor}\n{bad_import}  # noqa\n", 1), encoding="utf-8")
    done = _lint(where)
    assert done.returncode == 1, done.stdout + done.stderr
    assert [name for name in _broken(done.stdout) if name.startswith(contract)], done.stdout

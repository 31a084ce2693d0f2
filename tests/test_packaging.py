"""Getting it as a friend would (issue 25 item 11): `python -m build` makes a wheel and an sdist, and `pipx install`
of the wheel gives a working `p2pdurak` with its page and its translations; the sdist carries what a build needs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("pipx") is None and not (Path(sys.executable).parent / "pipx").exists(),
                    reason="needs pipx and build (pip install -e '.[test]')")
def test_a_wheel_and_an_sdist_install_with_pipx(tmp_path: Path) -> None:
    pytest.importorskip("build", reason="needs build (pip install -e '.[test]')")
    source = tmp_path / "src"
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():  # what is committed, not the work tree's caches and screenshots
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)], check=True,
                   capture_output=True, timeout=300)
    wheel, sdist = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert len(wheel) == 1 and len(sdist) == 1, list(dist.iterdir())
    with tarfile.open(sdist[0]) as archive:
        names = archive.getnames()
    assert any(n.endswith("/README.md") for n in names) and any(n.endswith("/web/static/app.js") for n in names)
    pipx = shutil.which("pipx") or str(Path(sys.executable).parent / "pipx")
    env = {**os.environ, "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "bin"),
           "PIPX_MAN_DIR": str(tmp_path / "man")}
    env.pop("PYTHONPATH", None)  # the installed copy, not this work tree
    subprocess.run([pipx, "install", "--python", sys.executable, str(wheel[0])], check=True, capture_output=True,
                   env=env, timeout=600)
    installed = tmp_path / "bin" / "p2pdurak"
    version = subprocess.run([str(installed), "--version"], capture_output=True, text=True, check=True, env=env,
                             cwd=tmp_path)
    assert version.stdout.strip().startswith("p2pdurak ")
    rules = subprocess.run([str(installed), "rules", "--lang", "de"], capture_output=True, text=True, check=True,
                           env=env, cwd=tmp_path)
    assert "Trumpf" in rules.stdout  # the compiled catalogs came along
    found = subprocess.run([str(tmp_path / "pipx" / "venvs" / "p2pdurak" / "bin" / "python"), "-c",
                            "from importlib import resources; "
                            "print(resources.files('p2pdurak.web').joinpath('static', 'app.js').is_file())"],
                           capture_output=True, text=True, check=True, env=env, cwd=tmp_path)
    assert found.stdout.strip() == "True"  # and the page
    subprocess.run([str(installed), "web-peer", "--out", str(tmp_path / "peer")], capture_output=True, check=True,
                   env=env, cwd=tmp_path)
    from p2pdurak.web.hostweb import load_bundle

    shipped = load_bundle(ROOT / "p2pdurak" / "web" / "peer")  # the browser seat's page (SPEC.md 9.15) came along
    assert shipped.files and load_bundle(tmp_path / "peer").files == shipped.files

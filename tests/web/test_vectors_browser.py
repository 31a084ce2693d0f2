"""The TypeScript core's tests in real browsers (issue 26): every test file `npm test` runs in node, the sixteen
vector files of protocol/vectors among them, bundled for a Worker (ts/scripts/build-browser.mjs) and run in headless
Chromium and in WebKit (WebKitGTK, the engine of Safari, through WebKitWebDriver; all but the in-memory table's whole
games, to keep it short); any failing case fails the test. Each vector file runs on both group backends, noble alone
and libsecp256k1 compiled to WebAssembly, so the module the page inlines is checked in both engines.
The seat test stays in node: it starts a Python host."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from p2pdurak.bench import webpage

VECTOR_FILES = sorted(p.name for p in webpage.VECTORS.glob("*.json"))
GROUPS = ("noble", "libsecp256k1 wasm")


@pytest.fixture(scope="module")
def served() -> Any:
    if shutil.which("node") is None or not (webpage.TS / "node_modules" / "esbuild").exists():
        pytest.skip("needs Node and `npm ci` in ts/ (esbuild builds the browser bundles); .ci/run does both")
    with webpage.workers() as served:
        yield served


def check_every_test_passes(driver: Any, served: webpage.Served, leave_out: frozenset[str] = frozenset()) -> None:
    results = webpage.run_test_files(driver, served, leave_out)
    outcomes = [outcome for file in results.values() for outcome in file]
    assert webpage.failures(outcomes) == []
    passed = {outcome["name"] for outcome in outcomes if outcome["status"] == "pass"}
    assert len(VECTOR_FILES) == 16
    # each vector file runs once with noble alone and once with libsecp256k1 in WebAssembly (ts/test/vectors.ts);
    # shuffle-proof.json is one test with both inside
    assert [f"{name} ({group})" for name in VECTOR_FILES for group in GROUPS
            if f"{name} ({group})" not in passed and name not in passed] == []
    assert "every vector file is run or listed as pending" in passed


@pytest.mark.skipif(not webpage.chromium_available(), reason="needs Debian's chromium and chromium-driver")
def test_every_vector_file_passes_in_chromium(served: webpage.Served) -> None:
    with webpage.chromium() as driver:
        check_every_test_passes(driver, served)


@pytest.mark.skipif(not webpage.webkit_available(),
                    reason="needs Debian's webkit2gtk-driver (WebKitWebDriver, MiniBrowser) and xvfb (MiniBrowser has "
                           "no headless mode: it runs on a virtual display of its own)")
# selenium's WebKitGTK driver still sets its server address the deprecated way
@pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")
def test_every_vector_file_passes_in_webkit(served: webpage.Served) -> None:
    with webpage.webkit() as driver:
        # JavaScriptCore takes about five times V8's time on this bigint arithmetic: WebKit runs every vector file,
        # and leaves the in-memory table's whole games (no vector file) to Chromium and node
        check_every_test_passes(driver, served, frozenset({"harness.test.ts"}))

"""`p2pdurak web-peer --out DIR`: write the browser seat's page, the very files a host serves on its web port, to a
folder: served from an origin the friend trusts, it sits at the same tables without trusting the host's copy."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "write the browser seat's page (the files a host serves to browsers) to a folder you serve yourself"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, metavar="DIR", type=Path,
                        help="the folder to write it to (made if missing; files of the same names are replaced)")


def run(args: argparse.Namespace) -> int:
    from p2pdurak.errors import LocalError
    from p2pdurak.web.hostweb import load_bundle

    bundle = load_bundle()
    if not bundle.files:
        raise LocalError("no-bundle", "this installation has no browser seat page (build it: cd ts && npm run "
                         "build:peer)")
    out: Path = args.out
    try:
        for path, data in sorted(bundle.files.items()):
            target = out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    except OSError as exc:
        raise LocalError("cannot-write", f"cannot write the page to {out}: {exc.strerror or exc}") from exc
    print(f"wrote the browser seat's page to {out} ({len(bundle.files)} files)")
    print(f"its SHA-256 (a host's lobby shows the same for the same page): {bundle.digest}")
    print(f"serve it from an origin you trust, e.g. python3 -m http.server --directory {out}, and open the page "
          "with the host's browser link after a #: http://localhost:8000/#http://…")
    return 0

"""libp2p under the same frames and messages (SPEC.md 9.14): Noise, yamux, the seat's own Ed25519 key as its peer id.

Only this package imports libp2p (an import-linter contract), and only when a table asks for it: plain play needs
neither libp2p nor the C toolchain its install builds with. `open_p2p_node` gives a node that is a Transport.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p2pdurak.errors import LocalError

if TYPE_CHECKING:
    from p2pdurak.net.p2p.node import open_p2p_node as open_p2p_node
    from p2pdurak.net.p2p.relay import run_relay as run_relay

INSTALL_HINT = ("libp2p is not installed; install the p2p extra: apt-get install build-essential libgmp-dev, then "
                "pip install -e '.[p2p]'")


_MODULES = {"open_p2p_node": "p2pdurak.net.p2p.node", "run_relay": "p2pdurak.net.p2p.relay"}


def _load(name: str) -> Any:
    import importlib

    try:
        module = importlib.import_module(_MODULES[name])
    except ImportError as exc:
        if exc.name is not None and not exc.name.startswith(("libp2p", "multiaddr")):
            raise
        raise LocalError("no-libp2p", INSTALL_HINT) from exc
    return getattr(module, name)


def require() -> None:
    """LocalError(no-libp2p), naming the install command, unless libp2p can be imported."""
    _load("open_p2p_node")


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return _load(name)
    raise AttributeError(name)

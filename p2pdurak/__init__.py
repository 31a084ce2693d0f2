"""p2pdurak: Durak between friends with no trusted server."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
SUITE = "secp256k1-sha256-ed25519"

"""Every message tag SPEC.md defines (sections 7 to 9), whichever modules a process has imported.

R-WIRE-9: a tag that no type of the specification has is `unknown-type`; a type of another layer than the one a
receiver expects is `unexpected-type`. A process that has not imported the transport (the offline verifier) must
still tell a transport message in a move body apart from a reserved tag, so the wire layer knows the whole table;
tests/wire checks that it matches the registered types exactly.
"""

from __future__ import annotations

LOG_TAGS = frozenset(range(0x01, 0x0F))  # 7.2-7.8: Member .. Receipt
PEER_TAGS = frozenset(range(0x20, 0x2C))  # 8.2, 8.3: GameOptions and the eleven move bodies
NET_TAGS = frozenset([*range(0x60, 0x79), 0x7B, 0x7C, 0x7D])  # 9.2: the transport messages
DEFINED_TAGS = LOG_TAGS | PEER_TAGS | NET_TAGS

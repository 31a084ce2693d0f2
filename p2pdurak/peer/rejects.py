"""Holding the host to its rejects and its silence (SPEC.md R-PEER-50..53): the checks a seat runs before it accuses
the host, and that `verify` runs again on the accusation record, with the same code.

A Reject names the chain length and head at which the host judged the move. Replaying the chain to that length and
running the host's own check (R-LOG-11 checks 10 to 12 and R-PEER-43, as `Peer.validate` does) decides it: a move
that passes there was refused falsely, and the host's signature on the Reject proves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pdurak.errors import PeerFault, RuleError
from p2pdurak.log import (
    FALSE_REJECT,
    SILENT_HOST,
    CheckedAccusation,
    LogFault,
    SignedMove,
    VerifiedGenesis,
    VerifiedReject,
    check_accused,
    sha256,
)
from p2pdurak.peer.peer import Peer

MEMORY_REASONS = ("stale-counter", "move-equivocation")
"""Reasons a host may give from moves it rejected before, which are on no chain (R-LOG-14): for a move that passes
at the named length they are the host's word against the author's, a claim, not a proof."""


@dataclass(frozen=True, slots=True)
class RejectJudgement:
    false: bool  # the Reject is the host's fault
    proven: bool  # and the chain with the signed Reject proves it (false for a claim, and for an honest reject)
    valid_at_head: bool | None  # the move passes the host's check at the named length (None: not checked)
    message: str


def judge_reject(
    genesis: VerifiedGenesis,
    entries: Sequence[bytes],
    move: SignedMove,
    reject: VerifiedReject,
    *,
    over: bool,
    peer: Peer | None = None,
) -> RejectJudgement | None:
    """Judge `reject` (of `move`) against a chain of `entries` that every peer accepted, whose game is `over` or not
    at its end. None: the Reject names a length the chain has not reached yet (catch up first). `peer` may be a peer
    that has applied exactly these entries (a seat's own), to skip the replay when the Reject names its head."""
    length, held = reject.length, len(entries)
    if length > held:
        if not over:
            return None
        return RejectJudgement(True, True, None, f"the Reject names chain length {length}, past the end of the game "
                               f"at {held} entries")
    head = genesis.hash if length == 0 else sha256(entries[length - 1])
    if head != reject.head:
        return RejectJudgement(True, True, None, f"the Reject names head {reject.head.hex()[:16]} at chain length "
                               f"{length}, which is not the head of the host's chain there ({head.hex()[:16]})")
    seen = _seen_length(genesis, entries, move.seen)
    if seen is not None and seen > length:
        return RejectJudgement(True, True, None, f"the Reject names chain length {length}, before the entry the move "
                               f"had seen (chain length {seen}): the host cannot have judged it there")
    observer = peer if peer is not None and peer.chain.length == length else None
    if observer is None:
        observer = Peer(genesis)
        for entry in entries[:length]:
            observer.receive(entry)
    try:
        pending = observer.chain.check_move(move.encoded)
        observer.validate(pending.move, pending.seen_length)
    except (PeerFault, RuleError) as exc:
        return RejectJudgement(False, False, False, f"the move fails the host's check at chain length {length} "
                               f"({exc.reason}): the reject ({reject.reason}) was honest")
    if reject.reason in MEMORY_REASONS:
        return RejectJudgement(True, False, True, f"the move passes the host's check at chain length {length}; the "
                               f"host's reason {reject.reason} rests on an earlier move of its author that it does not "
                               "show")
    return RejectJudgement(True, True, True, f"the move passes the host's check at chain length {length}, yet the "
                           f"host signed a Reject of it ({reject.reason})")


def _seen_length(genesis: VerifiedGenesis, entries: Sequence[bytes], seen: bytes) -> int | None:
    """The chain length at which `seen` is the head (0: the genesis), or None if it is no entry of this chain."""
    if seen == genesis.hash:
        return 0
    return next((i + 1 for i, entry in enumerate(entries) if sha256(entry) == seen), None)


def judge_record(accusation: CheckedAccusation, entries: Sequence[bytes], observer: Peer) -> RejectJudgement | None:
    """judge_reject for a false-reject record's evidence (`observer` has applied all of `entries`)."""
    assert accusation.reason == FALSE_REJECT and accusation.evidence is not None and accusation.reject is not None
    return judge_reject(observer.genesis, entries, accusation.evidence, accusation.reject, over=observer.over,
                        peer=observer)


def check_false_reject(
    accusation: CheckedAccusation, observer: Peer, judged: RejectJudgement | None
) -> RejectJudgement:
    """R-PEER-52: a false-reject record against the transcript's chain, given its judge_record. A record that does
    not hold raises LogFault bad-accusation, the accuser at fault."""
    check_accused(accusation, observer.chain)
    assert accusation.reject is not None
    if judged is None:
        raise LogFault("bad-accusation", f"the Reject names chain length {accusation.reject.length}, beyond the "
                       f"{observer.chain.length} entries the accuser held", seat=accusation.accuser)
    if not judged.false:
        raise LogFault("bad-accusation", judged.message, seat=accusation.accuser)
    return judged


def check_silent_host(accusation: CheckedAccusation, observer: Peer) -> None:
    """R-PEER-53: a silent-host record at the end of the chain: the game is not over and waits on the host."""
    check_accused(accusation, observer.chain)
    assert accusation.reason == SILENT_HOST
    host = observer.genesis.host
    if observer.over:
        raise LogFault("bad-accusation", "the game is over at the end of the chain: it waited on nobody",
                       seat=accusation.accuser)
    waiting = observer.waiting_on()
    if host not in waiting:
        raise LogFault("bad-accusation", f"the game waits on seat(s) {list(waiting)}, not on the host (seat {host})",
                       seat=accusation.accuser)

"""Conformance vectors of the log (SPEC.md 6.6, 7.10): `python -m p2pdurak.conformance.log_vectors [--check]`.

wire-messages.json: each log message type decoded from bytes (valid with its fields, invalid with the reason).
wire-log.json: genesis checks, chain replays, equivocation evidence and transcript files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.conformance.wire_vectors import Outcome, main_for
from p2pdurak.crypto import ed25519
from p2pdurak.crypto.identity import Identity, SignatureError, signed_bytes, verify
from p2pdurak.errors import DurakError, LocalError, PeerFault
from p2pdurak.log.accusation import Accusation, AccusationData, RejectedMove
from p2pdurak.log.dlog import (
    HEADER,
    KIND_ACCUSATION,
    KIND_ENTRY,
    encode_record,
    encode_transcript,
    read_transcript,
    verify_transcript,
)
from p2pdurak.log.evidence import EntryEquivocation, MoveEquivocation
from p2pdurak.log.faults import ReplayFault, sha256
from p2pdurak.log.genesis import verify_genesis
from p2pdurak.log.messages import (
    Entry,
    EntryData,
    Genesis,
    GenesisData,
    Member,
    Move,
    MoveData,
    Reject,
    RejectData,
)
from p2pdurak.log.moves import sign_move
from p2pdurak.log.receipts import Receipt, ReceiptData, sign_receipt
from p2pdurak.log.sequencer import Appended, Rejected, Sequencer
from p2pdurak.testing.log_fixtures import Table, forge_accusation, forge_entry, honest_chain, make_table
from p2pdurak.wire import REGISTRY, DecodeError, decode, encode, encode_value
from p2pdurak.wire.canonical import Value

MESSAGES_FILE = "wire-messages.json"
LOG_FILE = "wire-log.json"
TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        Member, GenesisData, Genesis, MoveData, Move, EntryData, Entry, RejectData, Reject, AccusationData, Accusation,
        RejectedMove, ReceiptData, Receipt,
    )
}  # fmt: skip


def message_to_json(msg: object) -> dict[str, Any]:
    mt = REGISTRY.type_of(type(msg))
    return {"type": type(msg).__name__, "fields": {name: _field_json(getattr(msg, name)) for name in mt.names}}


def _field_json(value: object) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple):
        return [_field_json(v) for v in value]
    if isinstance(value, bool | int | str) or value is None:
        return value
    return message_to_json(value)


def _fields(msg: object) -> list[Value]:
    return REGISTRY.to_value(msg)


# -- wire-messages.json ---------------------------------------------------------------------------------------------


def _messages_cases(table: Table) -> list[dict[str, Any]]:
    g = table.genesis
    seq = Sequencer(g, table.host)
    move = table.move(0, 1, g.hash, b"\x92\x01\x02")
    appended = seq.submit(move)
    rejected = seq.submit(table.move(2, 1, b"\x00" * 32, b"\x90"))
    if not isinstance(appended, Appended) or not isinstance(rejected, Rejected):
        raise LocalError("vector-generator", "the sequencer did not answer as expected")
    entry = decode(appended.entry_bytes, Entry)
    reject = decode(rejected.reject_bytes, Reject)
    accusation_bytes = forge_accusation(table.identities[2], g.hash, 2, g.host, "censored-move", 1, move)
    accusation = decode(accusation_bytes, Accusation)
    silent_bytes = forge_accusation(table.identities[2], g.hash, 2, g.host, "silent-host", 1, b"")
    receipt_bytes = sign_receipt(table.identities[2], g.hash, 2, 1, sha256(appended.entry_bytes))
    receipt = decode(receipt_bytes, Receipt)
    valid: list[tuple[str, bytes]] = [
        ("Member", encode(g.data.roster[0])),
        ("GenesisData", g.data_bytes),
        ("Genesis", table.genesis_bytes),
        ("MoveData", decode(move, Move).data),
        ("Move", move),
        ("EntryData", entry.data),
        ("Entry", encode(entry)),
        ("RejectData", reject.data),
        ("Reject", rejected.reject_bytes),
        ("AccusationData", accusation.data),
        ("Accusation", accusation_bytes),
        ("AccusationData", decode(silent_bytes, Accusation).data),  # silent-host: the only empty evidence
        ("RejectedMove", encode(RejectedMove(move, rejected.reject_bytes))),
        ("ReceiptData", receipt.data),
        ("Receipt", receipt_bytes),
        ("ReceiptData", encode(ReceiptData(g.hash, 0, 0, g.hash))),  # before any entry: the genesis hash as head
    ]
    member = _fields(g.data.roster[0])
    gdata = _fields(g.data)
    mdata = _fields(decode(decode(move, Move).data, MoveData))
    edata = _fields(decode(entry.data, EntryData))
    rdata = _fields(decode(reject.data, RejectData))
    adata = _fields(decode(accusation.data, AccusationData))
    cdata = _fields(decode(receipt.data, ReceiptData))
    env = _fields(decode(move, Move))

    def with_field(fields: list[Value], index: int, value: Value) -> bytes:
        changed = list(fields)
        changed[index] = value
        return encode_value(changed)

    invalid: list[tuple[str, str, bytes, str]] = [
        ("Member", "seat 6 is above the largest seat 5", with_field(member, 1, 6), "bad-field"),
        ("Member", "empty name", with_field(member, 2, ""), "bad-field"),
        ("Member", "name of 65 bytes", with_field(member, 2, "я" * 32 + "x"), "bad-field"),
        ("Member", "name with a newline", with_field(member, 2, "An\nya"), "bad-field"),
        ("Member", "name with a bidi override", with_field(member, 2, "An\u202eya"), "bad-field"),
        ("Member", "name with a trailing space", with_field(member, 2, "Anya "), "bad-field"),
        ("Member", "name as bin", with_field(member, 2, b"Anya"), "bad-field"),
        ("Member", "public key of 31 bytes", with_field(member, 3, b"\x01" * 31), "bad-field"),
        ("Member", "seat as a boolean", with_field(member, 1, False), "bad-field"),
        ("GenesisData", "suite with capitals", with_field(gdata, 2, "SECP256K1-SHA256-ED25519"), "bad-field"),
        ("GenesisData", "game id of 15 bytes", with_field(gdata, 3, b"\x00" * 15), "bad-field"),
        ("GenesisData", "options of 4097 bytes", with_field(gdata, 4, b"\x00" * 4097), "bad-field"),
        ("GenesisData", "a roster of one", with_field(gdata, 6, [member]), "bad-field"),
        ("GenesisData", "a roster of seven", with_field(gdata, 6, [member] * 7), "bad-field"),
        ("GenesisData", "a roster entry that is a Move", with_field(gdata, 6, [member, env]), "unexpected-type"),
        ("GenesisData", "a roster entry that is an int", with_field(gdata, 6, [member, 1]), "not-a-message"),
        ("GenesisData", "a roster entry of an unknown type", with_field(gdata, 6, [member, [0x7E]]), "unknown-type"),
        ("GenesisData", "a roster entry missing a field", with_field(gdata, 6, [member, member[:3]]), "field-count"),
        ("Genesis", "16386 bytes: above the genesis limit", encode_value([0x03, b"\x00" * 16380, []]), "too-large"),
        ("Genesis", "no signatures", encode_value([0x03, g.data_bytes, []]), "bad-field"),
        ("MoveData", "counter 0", with_field(mdata, 3, 0), "bad-field"),
        ("MoveData", "counter 2^32", with_field(mdata, 3, 2**32), "bad-field"),
        ("MoveData", "author 6", with_field(mdata, 2, 6), "bad-field"),
        ("MoveData", "seen of 31 bytes", with_field(mdata, 4, b"\x00" * 31), "bad-field"),
        ("MoveData", "genesis as str", with_field(mdata, 1, "00" * 16), "bad-field"),
        ("MoveData", "a field missing", encode_value(mdata[:-1]), "field-count"),
        ("MoveData", "a field too many", encode_value([*mdata, b""]), "field-count"),
        ("MoveData", "a Move where MoveData belongs", move, "unexpected-type"),
        ("Move", "signature of 63 bytes", with_field(env, 2, b"\x00" * 63), "bad-field"),
        ("Move", "non-minimal length of the data bin", _bin16_first(move), "non-canonical"),
        ("Move", "a byte after the move", move + b"\x00", "trailing-bytes"),
        ("Move", "tag 0x7f", encode_value([0x7F, *env[1:]]), "unknown-type"),
        ("Move", "a bare int", b"\x05", "not-a-message"),
        ("Move", "an empty array", b"\x90", "not-a-message"),
        ("Entry", "a Move where an Entry belongs", move, "unexpected-type"),
        ("EntryData", "seq 2^32", with_field(edata, 1, 2**32), "bad-field"),
        ("EntryData", "prev of 33 bytes", with_field(edata, 2, b"\x00" * 33), "bad-field"),
        ("RejectData", "reason with capitals", with_field(rdata, 5, "Stale-Pass"), "bad-field"),
        ("RejectData", "empty reason", with_field(rdata, 5, ""), "bad-field"),
        ("RejectData", "reason of 65 bytes", with_field(rdata, 5, "a" * 65), "bad-field"),
        ("AccusationData", "accused seat 6", with_field(adata, 3, 6), "bad-field"),
        ("AccusationData", "reason with a space", with_field(adata, 4, "censored move"), "bad-field"),
        ("AccusationData", "chain length 2^32", with_field(adata, 5, 2**32), "bad-field"),
        ("AccusationData", "evidence as a str", with_field(adata, 6, "censored"), "bad-field"),
        ("RejectedMove", "an empty reject", encode_value([0x0C, move, b""]), "bad-field"),
        ("AccusationData", "a Move where AccusationData belongs", move, "unexpected-type"),
        ("Accusation", "signature of 65 bytes", with_field(_fields(accusation), 2, b"\x00" * 65), "bad-field"),
        ("ReceiptData", "seat 6", with_field(cdata, 2, 6), "bad-field"),
        ("ReceiptData", "length 2^32", with_field(cdata, 3, 2**32), "bad-field"),
        ("ReceiptData", "head of 31 bytes", with_field(cdata, 4, b"\x00" * 31), "bad-field"),
        ("ReceiptData", "a field missing", encode_value(cdata[:-1]), "field-count"),
        ("Receipt", "signature of 63 bytes", with_field(_fields(receipt), 2, b"\x00" * 63), "bad-field"),
        ("Receipt", "data of 129 bytes", encode_value([0x0E, b"\x00" * 129, b"\x00" * 64]), "bad-field"),
        ("Receipt", "a Reject where a Receipt belongs", rejected.reject_bytes, "unexpected-type"),
    ]
    cases: list[dict[str, Any]] = []
    for type_name, data in valid:
        msg: object = decode(data, TYPES[type_name])
        cases.append(
            _case(len(cases) + 1, f"a valid {type_name}", type_name, data, "valid", fields=message_to_json(msg))
        )
    for type_name, comment, data, reason in invalid:
        cases.append(_case(len(cases) + 1, comment, type_name, data, "invalid", reason=reason))
    return cases


def _bin16_first(move: bytes) -> bytes:
    """The same Move with its data bin written with a bin16 header (c5) instead of bin8 (c4)."""
    envelope = decode(move, Move)
    if len(envelope.data) >= 256:
        raise ValueError("expected a short move")
    head = bytes((0x93, 0x05, 0xC5)) + len(envelope.data).to_bytes(2, "big")
    return head + envelope.data + b"\xc4\x40" + envelope.signature


def _case(tcid: int, comment: str, type_name: str, data: bytes, result: str, **extra: Any) -> dict[str, Any]:
    case: dict[str, Any] = {"tcId": tcid, "comment": comment, "messageType": type_name, "input": data.hex()}
    case["result"] = result
    case.update(extra)
    return case


def generate_messages() -> dict[str, Any]:
    cases = _messages_cases(make_table(3, seed=31, host=1))
    return {
        "algorithm": "p2pdurak log messages",
        "suite": SUITE,
        "version": PROTOCOL_VERSION,
        "spec": "SPEC.md 6.3, 7.2-7.5",
        "generator": "python -m p2pdurak.conformance.log_vectors",
        "notes": {
            "valid": "input decoded as messageType gives fields (bin as hex, nested messages as {type, fields})",
            "invalid": "decoding input as messageType MUST fail with reason (R-WIRE-5, R-WIRE-9)",
        },
        "numberOfTests": len(cases),
        "testGroups": [{"type": "LogMessage", "tests": cases}],
    }


# -- wire-log.json --------------------------------------------------------------------------------------------------


def _signed_genesis(data: GenesisData | bytes, signers: Sequence[Identity]) -> bytes:
    data_bytes = data if isinstance(data, bytes) else encode(data)
    return encode(Genesis(data_bytes, tuple(s.sign("genesis", data_bytes) for s in signers)))


def _genesis_cases() -> list[dict[str, Any]]:
    t = make_table(3, seed=41, host=2)
    ids = list(t.identities)
    d = t.genesis.data
    two, six = make_table(2, seed=42), make_table(6, seed=43, host=5)
    envelope = decode(t.genesis_bytes, Genesis)
    zero_key = (1).to_bytes(32, "little")  # the identity point
    cases: list[tuple[str, bytes, str, int | None]] = [
        ("a valid genesis, 3 seats, host 2", t.genesis_bytes, "valid", None),
        ("a valid genesis, 2 seats", two.genesis_bytes, "valid", None),
        ("a valid genesis, 6 seats", six.genesis_bytes, "valid", None),
        ("seat 1 signed in the move domain", _domain_swap(t, 1), "bad-genesis-signature", 1),
        (
            "signatures in the wrong order",
            encode(Genesis(envelope.data, envelope.signatures[::-1])),
            "bad-genesis-signature",
            0,
        ),
        (
            "one signature short",
            encode(Genesis(envelope.data, envelope.signatures[:2])),
            "signature-count",
            None,
        ),
        ("version 2, properly signed", _signed_genesis(replace(d, version=2), ids), "unsupported-version", None),
        ("another suite", _signed_genesis(replace(d, suite="p256-sha256-ed25519"), ids), "unsupported-suite", None),
        ("host seat 3 of 3", _signed_genesis(replace(d, host=3), ids), "bad-host", None),
        (
            "seats out of order",
            _signed_genesis(replace(d, roster=(d.roster[1], d.roster[0], d.roster[2])), ids),
            "bad-roster",
            None,
        ),
        (
            "two seats with one key",
            _signed_genesis(replace(d, roster=(*d.roster[:2], replace(d.roster[2], public_key=ids[0].public))), ids),
            "duplicate-key",
            None,
        ),
        (
            "the identity point as a key",
            _signed_genesis(
                replace(d, roster=(d.roster[0], replace(d.roster[1], public_key=zero_key), d.roster[2])), ids
            ),
            "bad-public-key",
            1,
        ),
        *_small_order_roster_cases(t),
        ("a byte after the genesis", t.genesis_bytes + b"\x00", "trailing-bytes", None),
        ("a Move where the genesis belongs", t.move(0, 1, t.genesis.hash, b""), "unexpected-type", None),
    ]
    out = []
    for i, (comment, data, result, seat) in enumerate(cases):
        case: dict[str, Any] = {"tcId": i + 1, "comment": comment, "input": data.hex()}
        if result == "valid":
            g = verify_genesis(data)
            case.update(result="valid", genesisHash=g.hash.hex(), seats=g.seats, host=g.host)
        else:
            case.update(result="invalid", reason=result, seat=seat)
        out.append(case)
    return out


# Small-order Ed25519 encodings (R-LOG-2), each with what it is; all are read as small-order points by a lax
# decoder, and under each of them `ed25519.forge_signature` makes a signature that such a decoder accepts.
_ORDER_8 = (
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
)
SMALL_ORDER_KEYS: tuple[tuple[str, bytes], ...] = (
    ("the identity with the sign bit set", (1 | 1 << 255).to_bytes(32, "little")),
    ("the point of order 2", (ed25519.P - 1).to_bytes(32, "little")),
    ("the point of order 2 with the sign bit set", (ed25519.P - 1 | 1 << 255).to_bytes(32, "little")),
    ("a point of order 4", bytes(32)),
    ("a point of order 4 encoded with y = p", ed25519.P.to_bytes(32, "little")),
    ("a point of order 8", _ORDER_8[0]),
    ("the other point of order 8 of that y", _ORDER_8[0][:31] + bytes((_ORDER_8[0][31] | 0x80,))),
    ("a point of order 8 of the other y", _ORDER_8[1]),
    ("the identity encoded with y = p + 1", (ed25519.P + 1).to_bytes(32, "little")),
)  # fmt: skip


def _forged(key: bytes, domain: str, message: bytes) -> bytes:
    sig = ed25519.forge_signature(key, signed_bytes(domain, message))
    if sig is None:
        raise AssertionError(f"no forgery under {key.hex()}")
    return sig


def _r_identity_signature(identity: Identity, domain: str, message: bytes) -> bytes:
    return ed25519.sign_with_identity_r(identity.seed(), identity.public, signed_bytes(domain, message))


def _small_order_roster_cases(t: Table) -> list[tuple[str, bytes, str, int | None]]:
    """Seat 1's key replaced by a small-order encoding and its genesis signature forged without a private key:
    every signature holds in a lax verifier, the roster check refuses seat 1. Then seat 1's own key with an
    R = identity signature."""
    ids, d = t.identities, t.genesis.data
    out: list[tuple[str, bytes, str, int | None]] = []
    for what, key in SMALL_ORDER_KEYS:
        data = encode(replace(d, roster=(d.roster[0], replace(d.roster[1], public_key=key), d.roster[2])))
        sigs = (ids[0].sign("genesis", data), _forged(key, "genesis", data), ids[2].sign("genesis", data))
        out.append((f"seat 1's key is {what}, its signature forged", encode(Genesis(data, sigs)), "bad-public-key", 1))
    data = encode(d)
    sigs = (ids[0].sign("genesis", data), _r_identity_signature(ids[1], "genesis", data), ids[2].sign("genesis", data))
    out.append(("seat 1 signed with R = the identity", encode(Genesis(data, sigs)), "bad-genesis-signature", 1))
    return out


def _signature_cases() -> list[tuple[str, bytes, str, bytes, bytes, str]]:
    """Ed25519 under R-LOG-2: (comment, public key, domain, message, signature, result or reason)."""
    ident = Identity.from_seed(bytes(range(32)))
    msg = b"p2pdurak signature vector"
    good = ident.sign("move", msg)
    s_plus_l = (int.from_bytes(good[32:], "little") + ed25519.L).to_bytes(32, "little")
    off_curve = next(e for y in range(2, 100) if ed25519.decode(e := y.to_bytes(32, "little")) is None)
    out = [
        ("a valid signature", ident.public, "move", msg, good, "valid"),
        ("the same signature in another domain", ident.public, "entry", msg, good, "bad-signature"),
        ("S + L in place of S", ident.public, "move", msg, good[:32] + s_plus_l, "bad-signature"),
        ("R = the identity, made by the key's owner", ident.public, "move", msg,
         _r_identity_signature(ident, "move", msg), "bad-signature"),
        ("a public key off the curve", off_curve, "move", msg, good, "bad-public-key"),
        ("R off the curve", ident.public, "move", msg, off_curve + good[32:], "bad-signature"),
        ("63 bytes", ident.public, "move", msg, good[:63], "bad-signature"),
    ]  # fmt: skip
    for what, key in SMALL_ORDER_KEYS:
        out.append((f"public key: {what}, signature forged", key, "move", msg, _forged(key, "move", msg),
                    "bad-public-key"))
        out.append((f"R: {what}", ident.public, "move", msg, key + good[32:], "bad-signature"))
    for y in (ed25519.P + 2, 2**255 - 1):
        key = y.to_bytes(32, "little")
        out.append((f"public key with y = {'p + 2' if y == ed25519.P + 2 else '2^255 - 1'} (not below p)", key,
                    "move", msg, good, "bad-public-key"))
        out.append((f"R with y = {'p + 2' if y == ed25519.P + 2 else '2^255 - 1'} (not below p)", ident.public,
                    "move", msg, key + good[32:], "bad-signature"))
    return out + _torsion_cases(ident, "move", msg)


def _torsion_cases(ident: Identity, domain: str, msg: bytes) -> list[tuple[str, bytes, str, bytes, bytes, str]]:
    """Made by the key's owner with a point T of order 8 on R, on the key, or on both: rule 4 is cofactorless,
    so these hold only when the torsion cancels (a cofactored verifier accepts all of them)."""
    signed = signed_bytes(domain, msg)

    def made(r_torsion: int, key_torsion: int) -> tuple[bytes, bytes, bool]:
        key, sig = ed25519.sign_with_torsion(ident.seed(), signed, r_torsion, key_torsion)
        return key, sig, ed25519.satisfies_equation(key, signed, sig)

    shifted_r = made(1, 0)
    refused = next(m for a in range(1, 8) if not (m := made(0, a))[2])
    holding = next(m for r in range(1, 8) for a in range(1, 8) if (m := made(r, a))[2])
    return [
        ("R + T (T of order 8), made by the key's owner", shifted_r[0], domain, msg, shifted_r[1], "bad-signature"),
        ("a mixed-order key A + T, k*T not the identity", refused[0], domain, msg, refused[1], "bad-signature"),
        ("a mixed-order key A + T, R + T' with T' = -k*T (the cofactorless equation holds)", holding[0], domain,
         msg, holding[1], "valid"),
    ]


def _signature_result(key: bytes, domain: str, msg: bytes, sig: bytes) -> dict[str, Any]:
    try:
        verify(key, domain, msg, sig)
    except SignatureError as exc:
        return {"result": "invalid", "reason": exc.reason}
    return {"result": "valid"}


def _domain_swap(t: Table, seat: int) -> bytes:
    g = decode(t.genesis_bytes, Genesis)
    sigs = list(g.signatures)
    sigs[seat] = t.identities[seat].sign("move", g.data)
    return encode(Genesis(g.data, tuple(sigs)))


def _chain_cases(t: Table) -> list[tuple[str, list[bytes]]]:
    host = t.host
    e = honest_chain(t, 5)
    chain = verify_transcript(read_transcript(encode_transcript(t.genesis_bytes, e)))[1]
    g = t.genesis.hash
    head = chain.head
    last = chain.entry(4).move
    nxt = chain.last_counter(0) + 1
    other = make_table(3, seed=52, host=1)

    def entry(move: bytes, seq: int = 5, prev: bytes = head, signer: Identity = host) -> bytes:
        return forge_entry(signer, seq, prev, move)

    move_data = encode_value([0x04, g, 4, nxt, head, b""])
    unknown_author = encode(Move(move_data, t.identities[0].sign("move", move_data)))
    fork = forge_entry(host, 2, chain.entry(1).hash, t.move(2, 40, g, b"\x01"))
    gap = entry(t.move(0, nxt + 2, head, b""))
    stale = t.move(0, nxt, head, b"")
    return [
        ("an honest chain of 5 entries", e),
        ("an empty chain", []),
        ("entry 5 signed by seat 0, not the host", [*e, entry(t.move(0, nxt, head, b""), signer=t.identities[0])]),
        ("entry 5 with seq 6", [*e, entry(t.move(0, nxt, head, b""), seq=6)]),
        ("entry 5 linked to entry 3", [*e, entry(t.move(0, nxt, head, b""), prev=chain.entry(3).hash)]),
        ("entry 2 dropped", [*e[:2], *e[3:]]),
        ("entries 1 and 2 swapped", [e[0], e[2], e[1], *e[3:]]),
        ("entry 3 repeated", [*e[:4], e[3], e[4]]),
        ("a second host-signed entry 2", [*e, fork]),
        ("a move signed by another seat's key", [*e, entry(sign_move(t.identities[2], g, 0, nxt, head, b""))]),
        ("a move of another game", [*e, entry(sign_move(t.identities[0], other.genesis.hash, 0, nxt, head, b""))]),
        ("a move by seat 4 at a table of 3", [*e, entry(unknown_author)]),
        ("a move that repeats an old counter", [*e, entry(t.move(last.author, last.counter - 1, head, b"\x07"))]),
        (
            "a counter in a gap below the newest",
            [*e, gap, forge_entry(host, 6, sha256(gap), stale)],
        ),
        ("the same move appended twice", [*e, entry(last.encoded)]),
        ("two moves with one counter", [*e, entry(t.move(last.author, last.counter, head, b"\x01"))]),
        ("a move that saw an unknown entry", [*e, entry(t.move(0, nxt, b"\x42" * 32, b""))]),
        ("a move that is not msgpack", [*e, entry(b"\xc1")]),
        ("entry data that is not an EntryData", [*e, encode(Entry(b"\x90", host.sign("entry", b"\x90")))]),
        ("an entry with a byte after it", [*e[:4], e[4] + b"\x00"]),
    ]


def _replay_case(genesis: bytes, entries: list[bytes]) -> dict[str, Any]:
    try:
        g, chain = verify_transcript(read_transcript(encode_transcript(genesis, entries)))
    except ReplayFault as exc:
        return {"result": "invalid", "reason": exc.reason, "entry": exc.entry, "seat": exc.seat}
    del g
    return {"result": "valid", "length": chain.length, "head": chain.head.hex()}


def _evidence_cases(t: Table) -> list[tuple[str, str, bytes, bytes]]:
    e = honest_chain(t, 3)
    chain = verify_transcript(read_transcript(encode_transcript(t.genesis_bytes, e)))[1]
    g = t.genesis.hash
    m = chain.entry(1).move
    fork = forge_entry(t.host, 1, chain.entry(0).hash, t.move(2, 9, g, b"\x01"))
    other = make_table(3, seed=52, host=1)
    return [
        ("EntryEquivocation", "two host-signed entries with seq 1", e[1], fork),
        ("EntryEquivocation", "the same entry twice", e[1], e[1]),
        ("EntryEquivocation", "entries with seq 0 and 1", e[0], fork),
        (
            "EntryEquivocation",
            "the second is not signed by the host",
            e[1],
            forge_entry(t.identities[0], 1, g, m.encoded),
        ),
        (
            "MoveEquivocation",
            "two moves of one author with one counter",
            m.encoded,
            t.move(m.author, m.counter, g, b"!"),
        ),
        ("MoveEquivocation", "the same move twice", m.encoded, m.encoded),
        ("MoveEquivocation", "different counters", m.encoded, t.move(m.author, m.counter + 1, g, b"!")),
        ("MoveEquivocation", "different authors", m.encoded, t.move((m.author + 1) % 3, m.counter, g, b"!")),
        (
            "MoveEquivocation",
            "a signature by another key",
            m.encoded,
            sign_move(t.identities[(m.author + 1) % 3], g, m.author, m.counter, g, b"!"),
        ),
        (
            "MoveEquivocation",
            "moves of another game",
            sign_move(t.identities[0], other.genesis.hash, 0, 1, g, b""),
            sign_move(t.identities[0], other.genesis.hash, 0, 1, g, b"!"),
        ),
    ]


def _transcript_cases(t: Table) -> list[tuple[str, bytes]]:
    e = honest_chain(t, 3)
    good = encode_transcript(t.genesis_bytes, e)
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 1
    return [*_plain_transcript_cases(t, e, good, bytes(flipped)), *_accusation_transcript_cases(t, e),
            *_short_file_cases(good)]


def _short_file_cases(good: bytes) -> list[tuple[str, bytes]]:
    """R-LOG-22: a file shorter than the 15 header bytes is `truncated` only if it is a non-empty prefix of them."""
    return [
        ("an empty file", b""),
        ("three bytes that do not begin the magic", b"P2Q"),
        ("the 14 bytes of the magic without the format byte", good[:14]),
        ("the 15 header bytes and no record", good[:15]),
    ]


def _plain_transcript_cases(t: Table, e: list[bytes], good: bytes, flipped: bytes) -> list[tuple[str, bytes]]:
    return [
        ("an honest transcript", good),
        ("a transcript with no entries", encode_transcript(t.genesis_bytes, [])),
        ("one byte flipped in the middle", flipped),
        ("cut in the middle of the last record", good[:-10]),
        ("cut in the header", good[:9]),
        ("another magic", b"P2PDURAK-DLOX" + good[13:]),
        ("format version 2", good[:14] + b"\x02" + good[15:]),
        ("an entry record before the genesis", HEADER + encode_record(KIND_ENTRY, e[0])),
        ("a private record in a public transcript", good + encode_record(0x80, b"secret")),
        ("a record of kind 4", good + b"\x04\x00\x00\x00\x01\x00"),
        ("a record of length 0", good + b"\x02\x00\x00\x00\x00"),
        ("a record longer than 262144 bytes", good + b"\x02\x00\x04\x00\x01"),
        ("a second genesis record", good + encode_record(0x01, t.genesis_bytes)),
    ]


def _accusation_transcript_cases(t: Table, e: list[bytes]) -> list[tuple[str, bytes]]:
    """Seat 2 accuses the host (seat 1) of never appending seat 0's next move (R-LOG-25, R-LOG-26). The chain-level
    rules of censorship (R-PEER-50) are for `verify`: transcript-tampered.json holds those."""
    g = t.genesis
    host = g.host
    chain = verify_transcript(read_transcript(encode_transcript(t.genesis_bytes, e)))[1]
    held = t.move(0, chain.last_counter(0) + 1, chain.head, b"\x92\x07\x00")
    accuser = t.identities[2]
    other = make_table(3, seed=52, host=1)

    def accusation(**change: Any) -> bytes:
        fields: dict[str, Any] = {
            "signer": accuser, "genesis_hash": g.hash, "accuser": 2, "accused": host, "reason": "censored-move",
            "chain_length": len(e), "evidence": held,
        }  # fmt: skip
        fields.update(change)
        return forge_accusation(**fields)

    good = accusation()
    record = encode_record(KIND_ACCUSATION, good)
    broken_move = held[:-1] + bytes((held[-1] ^ 1,))
    return [
        ("an accusation after the last entry", encode_transcript(t.genesis_bytes, e, good)),
        ("an accusation and no entries", encode_transcript(t.genesis_bytes, [], accusation(chain_length=0))),
        ("an accusation before the last entry", encode_transcript(t.genesis_bytes, e[:2]) + record
         + encode_record(KIND_ENTRY, e[2])),
        ("two accusations", encode_transcript(t.genesis_bytes, e, good) + record),
        ("an accusation before the genesis", HEADER + record),
        ("a genesis after the accusation", encode_transcript(t.genesis_bytes, e, good)
         + encode_record(0x01, t.genesis_bytes)),
        ("an accusation signed in the move domain", encode_transcript(t.genesis_bytes, e, accusation(domain="move"))),
        ("an accusation signed by the accused, not the accuser",
         encode_transcript(t.genesis_bytes, e, accusation(signer=t.host))),
        ("an accusation by seat 3 at a table of 3", encode_transcript(t.genesis_bytes, e, accusation(accuser=3))),
        ("an accusation of seat 5 at a table of 3", encode_transcript(t.genesis_bytes, e, accusation(accused=5))),
        ("an accusation signed for another game",
         encode_transcript(t.genesis_bytes, e, accusation(genesis_hash=other.genesis.hash))),
        ("evidence whose author signature does not verify",
         encode_transcript(t.genesis_bytes, e, accusation(evidence=broken_move))),
        ("evidence that is a move of another game", encode_transcript(
            t.genesis_bytes, e, accusation(evidence=sign_move(t.identities[0], other.genesis.hash, 0, 9, g.hash, b""))
        )),
        ("evidence that is an entry, not a move", encode_transcript(t.genesis_bytes, e, accusation(evidence=e[0]))),
        ("an accusation record of one zero byte",
         encode_transcript(t.genesis_bytes, e) + encode_record(KIND_ACCUSATION, b"\x00")),
    ]  # fmt: skip


def generate_log() -> dict[str, Any]:
    t = make_table(3, seed=51, host=1)
    genesis_tests = _genesis_cases()
    tcid = len(genesis_tests)
    chain_tests = []
    for comment, entries in _chain_cases(t):
        tcid += 1
        chain_tests.append({"tcId": tcid, "comment": comment, "entries": [x.hex() for x in entries]})
        chain_tests[-1].update(_replay_case(t.genesis_bytes, entries))
    evidence_tests = []
    for kind, comment, first, second in _evidence_cases(t):
        tcid += 1
        case: dict[str, Any] = {"tcId": tcid, "comment": comment, "kind": kind, "first": first.hex()}
        case["second"] = second.hex()
        case.update(_evidence_result(t, kind, first, second))
        evidence_tests.append(case)
    signature_tests = []
    for comment, key, domain, msg, sig, result in _signature_cases():
        tcid += 1
        sig_case: dict[str, Any] = {"tcId": tcid, "comment": comment, "publicKey": key.hex(), "domain": domain}
        sig_case.update(message=msg.hex(), signature=sig.hex())
        sig_case.update({"result": "valid"} if result == "valid" else {"result": "invalid", "reason": result})
        signature_tests.append(sig_case)
    transcript_tests = []
    for comment, data in _transcript_cases(t):
        tcid += 1
        transcript_tests.append({"tcId": tcid, "comment": comment, "input": data.hex(), **_transcript_result(data)})
    return {
        "algorithm": "p2pdurak signed log",
        "suite": SUITE,
        "version": PROTOCOL_VERSION,
        "spec": "SPEC.md 7",
        "generator": "python -m p2pdurak.conformance.log_vectors",
        "notes": {
            "Genesis": "R-LOG-5: valid with genesisHash, seats, host; or invalid with reason and seat (null: none)",
            "Chain": "R-LOG-11, R-LOG-23: replay entries after the group's genesis; valid with length and head, or "
            "invalid with reason, entry (index of the failing entry) and seat at fault",
            "Evidence": "R-LOG-17, R-LOG-18: valid with the seat proven at fault, or invalid with reason not-evidence",
            "Signature": "R-LOG-2: verify signature over \"p2pdurak/v1/\" || domain || 0x00 || message under "
            "publicKey; valid, or invalid with reason bad-public-key (the key) or bad-signature. The forged "
            "signatures under small-order keys verify in a lax (cofactorless, non-strict) Ed25519 library; the "
            "cases with a point of order 8 on R or on the key verify in a cofactored one",
            "Transcript": "R-LOG-21..23, R-LOG-25, R-LOG-26: a whole file; valid with length and head, or invalid "
            "with reason (and entry and seat for a replay failure; entry = the number of entries for a fault of the "
            "accusation record)",
        },
        "numberOfTests": tcid,
        "testGroups": [
            {"type": "Genesis", "tests": genesis_tests},
            {"type": "Chain", "genesis": t.genesis_bytes.hex(), "tests": chain_tests},
            {"type": "Evidence", "genesis": t.genesis_bytes.hex(), "tests": evidence_tests},
            {"type": "Signature", "tests": signature_tests},
            {"type": "Transcript", "tests": transcript_tests},
        ],
    }


def _evidence_result(t: Table, kind: str, first: bytes, second: bytes) -> dict[str, Any]:
    evidence = EntryEquivocation(first, second) if kind == "EntryEquivocation" else MoveEquivocation(first, second)
    try:
        return {"result": "valid", "seat": evidence.check(t.genesis)}
    except DurakError as exc:
        return {"result": "invalid", "reason": exc.reason}


def _transcript_result(data: bytes) -> dict[str, Any]:
    try:
        _, chain = verify_transcript(read_transcript(data))
    except ReplayFault as exc:
        return {"result": "invalid", "reason": exc.reason, "entry": exc.entry, "seat": exc.seat}
    except DurakError as exc:
        return {"result": "invalid", "reason": exc.reason}
    return {"result": "valid", "length": chain.length, "head": chain.head.hex()}


# -- running the vectors --------------------------------------------------------------------------------------------


_RESULT_KEYS = ("result", "reason", "seat", "entry", "length", "head", "genesisHash", "seats", "host")


def _expect(case: dict[str, Any], got: dict[str, Any]) -> Outcome:
    keys = [
        k for k in ("result", "reason", "seat", "entry", "length", "head", "genesisHash", "seats", "host") if k in case
    ]
    want = {k: case[k] for k in keys}
    have = {k: got.get(k) for k in keys}
    return Outcome(case["tcId"], want == have, "ok" if want == have else f"got {have}, expected {want}")


def _run_message(case: dict[str, Any]) -> Outcome:
    data = bytes.fromhex(case["input"])
    try:
        msg: object = decode(data, TYPES[case["messageType"]])
    except DecodeError as exc:
        return _expect(case, {"result": "invalid", "reason": exc.reason})
    if case["result"] == "valid" and (message_to_json(msg) != case["fields"] or encode(msg) != data):
        return Outcome(case["tcId"], False, "decoded to other fields")
    return _expect(case, {"result": "valid"})


def _run_genesis(case: dict[str, Any]) -> Outcome:
    try:
        g = verify_genesis(bytes.fromhex(case["input"]))
    except PeerFault as exc:
        return _expect(case, {"result": "invalid", "reason": exc.reason, "seat": exc.seat})
    return _expect(case, {"result": "valid", "genesisHash": g.hash.hex(), "seats": g.seats, "host": g.host})


def _run_chain(group: dict[str, Any], case: dict[str, Any]) -> Outcome:
    entries = [bytes.fromhex(x) for x in case["entries"]]
    return _expect(case, _replay_case(bytes.fromhex(group["genesis"]), entries))


def _run_evidence(group: dict[str, Any], case: dict[str, Any]) -> Outcome:
    return _expect(case, _evidence_check(verify_genesis(bytes.fromhex(group["genesis"])), case))


def _run_signature(group: dict[str, Any], case: dict[str, Any]) -> Outcome:
    args = (bytes.fromhex(case["publicKey"]), case["domain"], bytes.fromhex(case["message"]))
    return _expect(case, _signature_result(*args, bytes.fromhex(case["signature"])))


def _run_transcript(group: dict[str, Any], case: dict[str, Any]) -> Outcome:
    return _expect(case, _transcript_result(bytes.fromhex(case["input"])))


_RUNNERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], Outcome]] = {
    "LogMessage": lambda group, case: _run_message(case),
    "Genesis": lambda group, case: _run_genesis(case),
    "Chain": _run_chain,
    "Evidence": _run_evidence,
    "Signature": _run_signature,
    "Transcript": _run_transcript,
}


def run(doc: dict[str, Any]) -> list[Outcome]:
    """Check this implementation against a vector file (either of the two this module writes)."""
    outcomes: list[Outcome] = []
    for group in doc["testGroups"]:
        runner = _RUNNERS.get(group["type"])
        if runner is None:
            raise ValueError(f"unknown group type {group['type']}")
        outcomes.extend(runner(group, case) for case in group["tests"])
    return outcomes


def _evidence_check(genesis: Any, case: dict[str, Any]) -> dict[str, Any]:
    first, second = bytes.fromhex(case["first"]), bytes.fromhex(case["second"])
    cls = EntryEquivocation if case["kind"] == "EntryEquivocation" else MoveEquivocation
    try:
        return {"result": "valid", "seat": cls(first, second).check(genesis)}
    except DurakError as exc:
        return {"result": "invalid", "reason": exc.reason}


if __name__ == "__main__":
    raise SystemExit(main_for({MESSAGES_FILE: generate_messages, LOG_FILE: generate_log}))

"""The hand-made vector cases: what each tampered transcript, host submission and body encoding must give.

Every expected outcome here is written down from SPEC.md, not computed by the code under test; the generator only
builds the bytes. A case that this implementation gets wrong is a bug of the implementation (see the tests'
list of known deviations), never a reason to change the expectation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from p2pdurak.cards import rank_of
from p2pdurak.conformance.scenes import Scene, base_game, phase_is
from p2pdurak.conformance.transcripts import Json, records_of
from p2pdurak.crypto import deck as deckp
from p2pdurak.crypto.deck_messages import RevealMsg
from p2pdurak.crypto.group import scalar_to_bytes
from p2pdurak.log import KIND_ENTRY, KIND_GENESIS, sign_move
from p2pdurak.log.faults import sha256
from p2pdurak.log.messages import Entry, EntryData, Move, MoveData
from p2pdurak.log.sequencer import Rejected
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.messages import (
    AbortBody,
    Ack,
    BeatBody,
    ChallengeBody,
    DeckStep,
    DeclareBody,
    GameOptions,
    PassBody,
    PlayBody,
    ShowTrumpBody,
    TakeBody,
    TransferBody,
)
from p2pdurak.rules import DECLARING, PLAYING, Beat, Pass
from p2pdurak.wire import decode, encode

FLAG_NOTES = {
    "FileEdit": "bytes of a valid transcript changed, dropped, repeated, reordered or cut (R-LOG-22, R-LOG-23)",
    "HostFault": "the host appended an entry it had to reject: the host is at fault (R-PEER-12)",
    "AuthorFault": "two moves of one author with one counter: the author is at fault (R-LOG-18)",
    "Incomplete": "a transcript that stops while the game waits on a move (R-PEER-47)",
    "Accusation": "a transcript that ends with a seat's signed accusation that the host never appended a move "
    "(R-LOG-25, R-PEER-50, R-PEER-51): `expected.accusation` is the `accusation` object of `verify --json`, null "
    "when the record is not an authentic accusation of this game or an entry fault comes first",
    "WeakKey": "a roster key of small order or encoded non-canonically, under which anyone makes every signature: "
    "the genesis is refused with bad-public-key naming that seat (R-LOG-2, R-LOG-5)",
    "FalseDeclaration": "a lowest-trump declaration contradicted by a card the record opens: at its opening the "
    "declarer forfeits (R-PEER-31), and at the end of the game, however it ended, it is the declarer's fault "
    "(R-PEER-39); `expected.faults` lists every fault found there",
}


@dataclass(frozen=True, slots=True)
class Tampered:
    base: str
    comment: str
    spec: str
    flag: str
    edit: Json
    expected: Json


@dataclass(frozen=True, slots=True)
class HostCase:
    base: str
    comment: str
    spec: str
    flag: str
    entries: int
    move: bytes
    expected: Json


def invalid(reason: str, entry: int | None, seat: int | None, exit_code: int = 1) -> Json:
    return {"exitCode": exit_code, "valid": False, "reason": reason, "entry": entry, "seat": seat}


def unreadable(reason: str) -> Json:
    return invalid(reason, None, None, 2)


def unfinished(expected: Json, entries: int) -> Json:
    """R-PEER-48: `entries` counts every entry record of the file (also those after the failing one); `how` and
    `result` are null unless every entry passed and the game is over."""
    return {**expected, "entries": entries, "how": None, "result": None}


# -- helpers on the bytes -------------------------------------------------------------------------------------------


def _offsets(data: bytes) -> list[int]:
    """File offset of every record (its kind byte)."""
    from p2pdurak.log.dlog import parse_records

    records, _ = parse_records(data)
    return [r.offset for r in records]


def _entry_parts(entry_bytes: bytes) -> tuple[EntryData, bytes]:
    entry = decode(entry_bytes, Entry)
    return decode(entry.data, EntryData), entry.signature


def _move_of(entry_bytes: bytes) -> tuple[Move, MoveData]:
    data, _ = _entry_parts(entry_bytes)
    move = decode(data.move, Move)
    return move, decode(move.data, MoveData)


def _payload(kind: int, data: bytes) -> Json:
    return {"kind": kind, "payload": data.hex()}


def _continued(base: bytes, table: MemoryTable, extra: list[bytes]) -> Json:
    """`records` for the base's genesis and the table's entries (by index where they equal the base's), then
    `extra` new entries."""
    records = records_of(base)
    base_entries = [p for k, p in records[1:] if k == KIND_ENTRY]
    items: list[Any] = [0]
    for i, e in enumerate(table.entries):
        items.append(i + 1 if i < len(base_entries) and base_entries[i] == e else _payload(KIND_ENTRY, e))
    items.extend(_payload(KIND_ENTRY, e) for e in extra)
    return {"records": items}


def _declaring(t: MemoryTable) -> bool:
    r = t.peers[0].rules
    return t.peers[0].phase == game.PLAY and r is not None and r.phase == DECLARING


def _in_play(t: MemoryTable) -> bool:
    r = t.peers[0].rules
    return t.peers[0].phase == game.PLAY and r is not None and r.phase == PLAYING


def _bout_open_by(seat: int) -> Callable[[MemoryTable], bool]:
    def pred(t: MemoryTable) -> bool:
        r = t.peers[0].rules
        return _in_play(t) and r is not None and not r.attacks and r.opener == seat

    return pred


def _unopened_of(scene: Scene, seat: int) -> list[int]:
    snap = scene.table.peers[seat].snapshot
    rules = snap.rules
    held = rules.hands[seat] if rules is not None else 0
    out = []
    for p, owner in enumerate(snap.owner):
        if (
            owner == seat and snap.opened[p] == game.NO_CARD and deckp.missing_keys(snap.deck, p, seat) == ()
            and held >> scene.table.peers[seat].card_at(p) & 1
        ):
            out.append(p)
    return out


def _key(scene: Scene, seat: int, position: int) -> bytes:
    sec = scene.table.peers[seat].secrets
    assert sec is not None
    return scalar_to_bytes(sec.lock_keys[position])


# -- transcript-tampered.json ---------------------------------------------------------------------------------------


def tampered_cases(bases: dict[str, bytes]) -> list[Tampered]:
    out: list[Tampered] = []
    out += _file_edit_cases(bases["plain24"])
    out += _crafted_entry_cases(bases)
    out.append(_false_declaration_case(bases))
    out.append(_false_declaration_then_leaving(bases))
    out.append(_false_declaration_then_silence(bases))
    out.append(_false_declaration_unfinished(bases))
    out.append(_small_order_key_case(bases))
    return out  # then abort_cases.py and accusations.py, which build on this module (vectors.tampered_cases)


def _small_order_key_case(bases: dict[str, bytes]) -> Tampered:
    """Issue 13 attack 6: seat 1's roster key is the identity with the sign bit set (01 00..00 80), so signatures
    under it are made without its private key. The host forges seat 1's genesis signature and its Abort(1,
    "leaving"), and appends that as entry 0: a lax Ed25519 verifier accepts every signature and names seat 1 the
    durak. R-LOG-2 and R-LOG-5 refuse the key: bad-public-key, seat 1, before any entry."""
    from p2pdurak.crypto.ed25519 import forge_signature
    from p2pdurak.crypto.identity import signed_bytes
    from p2pdurak.log.messages import Genesis, GenesisData
    from p2pdurak.testing.log_fixtures import forge_entry

    scene = Scene(base_game("plain24"))
    ids = scene.table.identities
    key = (1 | 1 << 255).to_bytes(32, "little")
    data = decode(records_of(bases["plain24"])[0][1], Genesis).data
    gd = decode(data, GenesisData)
    data = encode(replace(gd, roster=(gd.roster[0], replace(gd.roster[1], public_key=key), *gd.roster[2:])))

    def forged(domain: str, message: bytes) -> bytes:
        sig = forge_signature(key, signed_bytes(domain, message))
        if sig is None:  # pragma: no cover - the identity accepts every try
            raise AssertionError("no forgery")
        return sig

    genesis = encode(Genesis(data, (ids[0].sign("genesis", data), forged("genesis", data))))
    g = sha256(data)
    move_data = encode(MoveData(g, 1, 1, g, encode(AbortBody(1, "leaving", 0))))
    entry = forge_entry(ids[0], 0, g, encode(Move(move_data, forged("move", move_data))))
    records = [_payload(KIND_GENESIS, genesis), _payload(KIND_ENTRY, entry)]
    return Tampered("plain24", "seat 1's roster key is the identity with the sign bit set; the host forges its "
                    "genesis signature and its Abort(1, leaving)", "R-LOG-2, R-LOG-5", "WeakKey",
                    {"records": records}, invalid("bad-public-key", None, 1))


class _LyingOpening:
    """transfer24 (trumps: diamonds) at its opening: seat 0 (the host) holds 9D but says twice that it holds no
    trump that low (asked up to 9D, then up to TD); seats 1 and 2 answer truthfully and seat 1 shows TD and opens.
    The host appends its own lies unchecked: its own peer, which knows 9D, faults, and the script signs for it."""

    name = "transfer24"

    def __init__(self, bases: dict[str, bytes]) -> None:
        self.scene = Scene.at(base_game(self.name), bases[self.name], _declaring)
        self.table = self.scene.table
        self.counter = self.table.peers[0].counter
        t = self.table
        for make in (lambda: self.liar_move(DeclareBody(None, None)), t.peers[1].protocol_move,
                     t.peers[2].protocol_move, lambda: self.liar_move(DeclareBody(None, None)),
                     t.peers[1].protocol_move):
            self.append(make())
        rules = t.peers[1].rules
        assert rules is not None and rules.phase == PLAYING and rules.opener == 1

    def liar_move(self, body: object) -> bytes:
        self.counter += 1
        return self.scene.forger.move(0, body, counter=self.counter)

    def position(self, seat: int, card: str) -> int:
        from p2pdurak.cards import parse_card

        peer = self.table.peers[seat]
        return next(p for p in range(6 * seat, 6 * seat + 6) if peer.card_at(p) == parse_card(card))

    def append(self, move: bytes | None) -> None:
        assert move is not None
        outcome = self.table.sequencer.submit(move)
        assert not isinstance(outcome, Rejected)
        self.table.deliver(outcome.entry_bytes)

    def liar_audit(self) -> None:
        sec = self.table.peers[0].secrets
        assert sec is not None
        self.append(self.liar_move(DeckStep(deckp.make_audit(self.table.peers[1].snapshot.deck, sec).to_bytes())))

    def case(self, bases: dict[str, bytes], comment: str, spec: str, how: str, forfeit_reason: str) -> Tampered:
        t = self.table
        assert t.peers[1].over and t.peers[2].over
        expected = invalid("false-declaration", len(t.entries) - 1, 0)
        final = t.peers[1].result
        assert final is not None
        expected.update({
            "how": how,
            "result": {"durak": 0, "losing_team": None, "draw": False, "pogony": 0, "forfeit": 0,
                       "forfeit_reason": forfeit_reason, "out_order": [list(g) for g in final.out_order]},
            "faults": [{"reason": "false-declaration", "seat": 0}],
        })
        return Tampered(self.name, comment, spec, "FalseDeclaration", _continued(bases[self.name], t, []), expected)


def _false_declaration_case(bases: dict[str, bytes]) -> Tampered:
    """The lying opening; then seat 1 opens TH, seat 2 transfers with TC, seat 0 beats TC with 9D: the opening
    contradicts the answers, seat 0 forfeits (R-PEER-31); the audit finds it again."""
    from p2pdurak.cards import parse_card
    from p2pdurak.peer.messages import BeatBody as Beat_
    from p2pdurak.rules import Play as PlayAction
    from p2pdurak.rules import Transfer as TransferAction

    lying = _LyingOpening(bases)
    t = lying.table
    lying.append(t.peers[1].act(PlayAction(1, parse_card("TH"))))
    lying.append(t.peers[2].act(TransferAction(2, parse_card("TC"))))
    nine = lying.position(0, "9D")
    lying.append(lying.liar_move(Beat_(1, nine, _key(lying.scene, 0, nine))))
    assert t.peers[1].phase == game.AUDIT
    for seat in (1, 2):
        lying.append(t.peers[seat].protocol_move())
    lying.liar_audit()
    return lying.case(bases, "seat 0 says it holds no trump up to 9D, then up to TD, while holding 9D; 9D, opened "
                      "later by a beat, shows the lie: seat 0 forfeits at once and the audit names it",
                      "R-PEER-31, R-PEER-39, R-PEER-48", "result", "false-declaration")


def _false_declaration_then_leaving(bases: dict[str, bytes]) -> Tampered:
    """Issue 28, attack 2: the lying opening; seat 2 leaves before any card is played. The audit is not complete
    (seat 2 owes none), but the other keys of seat 0's starting positions came with the deal, and seat 0's audit
    publishes its own: the record opens 9D, and the fault comes before leaving."""
    lying = _LyingOpening(bases)
    t = lying.table
    lying.append(t.peers[2].abort(2, "leaving"))
    lying.append(t.peers[1].protocol_move())
    lying.liar_audit()
    return lying.case(bases, "seat 0 denies 9D while holding it; seat 2 then leaves: the audits of seats 0 and 1 "
                      "open seat 0's starting hand, so the lie is seat 0's fault, before seat 2's leaving",
                      "R-PEER-39, R-PEER-48", "abort", "false-declaration")


def _false_declaration_unfinished(bases: dict[str, bytes]) -> Tampered:
    """The same lie; seat 2 leaves; seat 0 publishes its audit, seat 1 not yet: the file ends in the audit, so it is
    incomplete (waiting on seat 1, no result), yet the record already opens 9D in seat 0's starting hand."""
    lying = _LyingOpening(bases)
    t = lying.table
    lying.append(t.peers[2].abort(2, "leaving"))
    lying.liar_audit()
    assert t.peers[1].phase == game.AUDIT
    expected = unfinished(invalid("incomplete", len(t.entries), 1), len(t.entries))
    expected["faults"] = [{"reason": "false-declaration", "seat": 0}]
    return Tampered(lying.name, "seat 0 denies 9D while holding it; seat 2 leaves; seat 0 audits and the file ends "
                    "before seat 1's audit: incomplete, no result, and the lie the record already opens is named",
                    "R-PEER-47, R-PEER-48", "FalseDeclaration", _continued(bases[lying.name], t, []), expected)


def _false_declaration_then_silence(bases: dict[str, bytes]) -> Tampered:
    """The same lie; then the game waits on seat 1 (the opener) and seats 0 and 2 sign that it is silent: the
    silence is attested and seat 1 owes no audit, yet the record opens 9D in seat 0's starting hand."""
    lying = _LyingOpening(bases)
    t = lying.table
    lying.append(lying.liar_move(AbortBody(1, "silent-seat", len(t.entries))))
    lying.append(t.peers[2].abort(1, "silent-seat"))
    assert t.peers[2].phase == game.AUDIT
    lying.append(t.peers[2].protocol_move())
    lying.liar_audit()
    return lying.case(bases, "seat 0 denies 9D while holding it; seat 1 is then named silent by seats 0 and 2 "
                      "(attested): seat 0's audit opens its starting hand, so the lie is seat 0's fault, before the "
                      "silence", "R-PEER-38a, R-PEER-39, R-PEER-48", "abort", "false-declaration")


def _play_entry(base: bytes, at_least: int) -> int:
    """The first entry index >= at_least before which the game is in the play phase proper."""
    scene = Scene.at(base_game("plain24"), base, lambda t: len(t.entries) >= at_least and _in_play(t))
    return scene.length


def _waited_in_play(base: bytes, k: int) -> int:
    """R-PEER-47: in the play, the seat to declare, else the opener of an empty table, else the lowest seat still
    in the game with a legal action that has not passed since the last change of the table."""
    from p2pdurak.rules import legal_actions

    scene = Scene.at_entry(base_game("plain24"), base, k)
    r = scene.observer.rules
    assert r is not None and scene.observer.phase == game.PLAY
    if r.phase == DECLARING:
        return r.turn
    if not r.attacks:
        return r.opener
    return next(s for s in range(r.n) if r.in_game >> s & 1 and not r.passed >> s & 1 and legal_actions(r, s))


def _file_edit_cases(base: bytes) -> list[Tampered]:
    records = records_of(base)
    offs = _offsets(base)
    n = len(records) - 1  # entries
    genesis = records[0][1]
    host = 0
    k = _play_entry(base, 40)  # an entry in the middle of the play
    waited = _waited_in_play(base, k)
    out: list[Tampered] = []

    def add(comment: str, spec: str, edit: Json, expected: Json, flag: str = "FileEdit") -> None:
        out.append(Tampered("plain24", comment, spec, flag, edit, expected))

    gstart = offs[0] + 5
    add("a flipped byte in seat 1's genesis signature", "R-LOG-5",
        {"fileEdits": [{"offset": gstart + len(genesis) - 1, "xor": 0x01}]},
        unfinished(invalid("bad-genesis-signature", None, 1), n))
    name_at = gstart + genesis.index(b"Boris")
    add("a roster name changed after signing ('Boris' -> 'Coris'): seat 0's signature fails first", "R-LOG-5",
        {"fileEdits": [{"offset": name_at, "xor": 0x01}]}, invalid("bad-genesis-signature", None, 0))
    end_k = offs[k + 2] if k + 2 < len(offs) else len(base)
    add(f"a flipped byte in the host's signature of entry {k}", "R-LOG-11 (2)",
        {"fileEdits": [{"offset": end_k - 1, "xor": 0x80}]}, invalid("bad-entry-signature", k, host))
    add(f"a flipped byte inside the move of entry {k}", "R-LOG-11 (2)",
        {"fileEdits": [{"offset": offs[k + 1] + 5 + 60, "xor": 0x01}]}, invalid("bad-entry-signature", k, host))
    add(f"the record kind of entry {k} changed to a reserved kind", "R-LOG-22",
        {"fileEdits": [{"offset": offs[k + 1], "xor": 0x06}]}, unreadable("unknown-record"))
    add("a flipped byte in the magic", "R-LOG-22", {"fileEdits": [{"offset": 0, "xor": 0x20}]}, unreadable("bad-magic"))
    add("format version 3", "R-LOG-22", {"fileEdits": [{"offset": 14, "xor": 0x02}]}, unreadable("unsupported-format"))
    add("the file cut inside its last record", "R-LOG-22", {"fileEdits": [{"cut": len(base) - 10}]},
        unreadable("truncated"))
    add("the genesis record twice", "R-LOG-22", {"records": [0, 0, *range(1, n + 1)]}, unreadable("misplaced-genesis"))
    add("entries without a genesis", "R-LOG-22", {"records": list(range(1, n + 1))}, unreadable("missing-genesis"))
    add(f"entry {k} dropped", "R-LOG-11 (5)", {"records": [i for i in range(n + 1) if i != k + 1]},
        unfinished(invalid("wrong-seq", k, host), n - 1))
    add(f"entry {k} repeated right after itself", "R-LOG-23",
        {"records": [*range(k + 2), k + 1, *range(k + 2, n + 1)]},
        unfinished(invalid("duplicate-entry", k + 1, None), n + 1))
    add(f"entries {k} and {k + 1} swapped", "R-LOG-11 (5)",
        {"records": [*range(k + 1), k + 2, k + 1, *range(k + 3, n + 1)]}, invalid("wrong-seq", k, host))
    add("the genesis alone: the game waits on seat 0's shuffle", "R-PEER-47", {"records": [0]},
        unfinished(invalid("incomplete", 0, 0), 0), "Incomplete")
    add(f"cut after entry {k - 1}, in the play: the game waits on seat {waited}", "R-PEER-47",
        {"records": list(range(k + 1))}, invalid("incomplete", k, waited), "Incomplete")
    _, last = _move_of(records[-1][1])
    add("the last audit missing: the game waits on its seat", "R-PEER-47", {"records": list(range(n))},
        invalid("incomplete", n - 1, last.author), "Incomplete")
    data_k, _ = _entry_parts(records[k + 1][1])
    _, sig_prev = _entry_parts(records[k][1])
    swapped = encode(Entry(encode(data_k), sig_prev))
    add(f"entry {k} carries the host's signature of entry {k - 1}", "R-LOG-11 (2)",
        {"records": [*range(k + 1), _payload(KIND_ENTRY, swapped), *range(k + 2, n + 1)]},
        invalid("bad-entry-signature", k, host))
    return out


def _resign(scene: Scene, entry_bytes: bytes, new_move: bytes) -> bytes:
    data, _ = _entry_parts(entry_bytes)
    return scene.forger.entry(new_move, seq=data.seq, prev=data.prev)


def _crafted_entry_cases(bases: dict[str, bytes]) -> list[Tampered]:
    out: list[Tampered] = []
    plain = base_game("plain24")
    base = bases["plain24"]
    records = records_of(base)
    n = len(records) - 1
    host = 0

    def add(scene: Scene, comment: str, spec: str, extra: list[bytes], expected: Json, flag: str = "HostFault",
            name: str = "plain24") -> None:
        out.append(Tampered(name, comment, spec, flag, _continued(bases[name], scene.table, extra), expected))

    # A move whose signature was replaced by the author's signature of another move, re-signed by the host.
    scene = Scene.at_entry(plain, bases["plain24"], 40)
    nxt = records[41][1]
    move, data = _move_of(nxt)
    other = next(
        _move_of(records[i][1])[0] for i in range(40, 0, -1) if _move_of(records[i][1])[1].author == data.author
    )
    forged = encode(Move(move.data, other.signature))
    add(scene, "entry 40 re-signed by the host around its move with a substituted author signature",
        "R-LOG-11 (9)", [_resign(scene, nxt, forged)], invalid("bad-move-signature", 40, host))
    f = scene.forger
    head = scene.length
    add(scene, "the host appends its own move signed for another genesis", "R-LOG-11 (10)",
        [f.entry(sign_move(scene.table.identities[0], sha256(b"another game"), 0, f.next_counter(0), f.head,
                           encode(PassBody())))],
        invalid("wrong-game", head, host))
    add(scene, "the host appends its own move whose `seen` is not on the chain", "R-LOG-11 (12)",
        [f.entry(f.move(0, PassBody(), seen=sha256(b"nowhere")))], invalid("unknown-seen", head, host))
    last1 = scene.table.peers[1].counter
    add(scene, "seat 1 signed a second move with a counter it used before; the host appends it", "R-LOG-18",
        [f.entry(f.move(1, AbortBody(1, "leaving", head), counter=last1))],
        invalid("move-equivocation", head, 1), "AuthorFault")
    add(scene, "the host's own move whose body is GameOptions, not a move body", "R-PEER-8",
        [f.entry(f.move(0, GameOptions.of(plain.options)))], invalid("unexpected-type", head, host))
    add(scene, "the host's own move whose body has an unknown tag", "R-PEER-8",
        [f.entry(f.move_bytes(0, bytes((0x91, 0x5F))))], invalid("unknown-type", head, host))

    # Setup faults by the host's own seat.
    scene = Scene.at_entry(plain, bases["plain24"], 1)
    first_shuffle = _move_of(records[1][1])[1].body
    add(scene, "the host shuffles a second time (its own shuffle again) instead of seat 1", "R-MP-9, R-PEER-14",
        [scene.forger.entry(scene.forger.move_bytes(0, first_shuffle))], invalid("out-of-turn", 1, host))
    scene = Scene.at(plain, bases["plain24"], phase_is(game.LOCK))
    sec = scene.table.peers[0].secrets
    assert sec is not None
    lock = bytearray(deckp.make_lock(scene.observer.deck, sec, scene.table.peers[0].rng).to_bytes())
    lock[1 + 33 + 33 + 31] ^= 0x01  # last byte of c in the proof of position 0
    add(scene, "the host's lock with a wrong proof for position 0", "R-MP-13, R-PEER-14",
        [scene.forger.entry(scene.forger.move(0, DeckStep(bytes(lock))))], invalid("bad-lock-proof", 2, host))

    # The ack barrier and the deal keys.
    scene = Scene.at(plain, bases["plain24"], phase_is(game.DEAL_ACK))
    barrier = scene.observer.barrier
    head = scene.length
    add(scene, "the host acks an entry that is not the barrier", "R-PEER-17",
        [scene.forger.entry(scene.forger.move(0, Ack(barrier - 1)))], invalid("wrong-ack", head, host))
    add(scene, "the host plays a card while the deal is being acknowledged", "R-PEER-16",
        [scene.forger.entry(scene.forger.move(0, PassBody()))], invalid("out-of-phase", head, host))
    ack = scene.table.peers[0].protocol_move()
    assert ack is not None
    scene.table.submit(ack)
    add(scene, "the host acks the barrier twice", "R-PEER-17",
        [scene.forger.entry(scene.forger.move(0, Ack(barrier)))], invalid("repeated-ack", head + 1, host))
    scene = Scene.at(plain, bases["plain24"], phase_is(game.DEAL_KEYS))
    due = game.due_keys(scene.table.host_peer.ctx, scene.observer, 0)
    sec = scene.table.peers[0].secrets
    assert sec is not None
    short = deckp.make_reveal(scene.observer.deck, sec, due[:-1]).to_bytes()
    add(scene, "the host publishes its deal keys without the last position due", "R-PEER-20",
        [scene.forger.entry(scene.forger.move(0, DeckStep(short)))], invalid("wrong-positions", scene.length, host))
    wrong = RevealMsg(0, tuple((p, sec.lock_keys[p] + 1) for p in due)).to_bytes()
    add(scene, "the host publishes a wrong deal key", "R-MP-15, R-PEER-20",
        [scene.forger.entry(scene.forger.move(0, DeckStep(wrong)))], invalid("wrong-key", scene.length, host))

    # The host's own illegal plays.
    scene = Scene.at(plain, bases["plain24"], _bout_open_by(0))
    f = scene.forger
    head = scene.length
    mine = _unopened_of(scene, 0)
    theirs = [p for p, s in enumerate(scene.observer.owner) if s == 1 and scene.observer.opened[p] == game.NO_CARD]
    add(scene, "the host opens a bout with a position dealt to seat 1", "R-PEER-23",
        [f.entry(f.move(0, PlayBody(theirs[0], _key(scene, 0, theirs[0]))))], invalid("not-your-card", head, host))
    add(scene, "the host opens a bout with its own card and a wrong key", "R-MP-15, R-PEER-23",
        [f.entry(f.move(0, PlayBody(mine[0], _key(scene, 0, mine[1]))))], invalid("wrong-key", head, host))
    add(scene, "the host plays its own unopened card without its key", "R-PEER-23",
        [f.entry(f.move(0, PlayBody(mine[0], None)))], invalid("missing-key", head, host))
    trump_pos = plain.options.deck - 1
    add(scene, "the host names the open trump position with a key", "R-PEER-23",
        [f.entry(f.move(0, PlayBody(trump_pos, _key(scene, 0, trump_pos))))], invalid("repeated-reveal", head, host))
    add(scene, "the host challenges in a game without the cheating variant", "R-PEER-34",
        [f.entry(f.move(0, ChallengeBody(trump_pos)))], invalid("cheating-disabled", head, host))
    add(scene, "the host transfers in a game without transfers", "R-PEER-23, R-RULES-37",
        [f.entry(f.move(0, TransferBody(mine[0], _key(scene, 0, mine[0]))))], invalid("transfer-disabled", head, host))
    add(scene, "seat 1 opens a bout that seat 0 opens; the host appends it", "R-PEER-12, R-PEER-23",
        [f.entry(f.move(1, PlayBody(theirs[0], _key(scene, 1, theirs[0]))))], invalid("not-your-turn", head, host))

    # A stale pass: seat 1 passes having seen the table before the defender's beat; the host appends it after.
    def stale_point(t: MemoryTable) -> bool:
        r = t.peers[0].rules
        return (
            _in_play(t) and r is not None and bool(r.attacks) and r.attacker == 1
            and any(isinstance(a, Pass) for a in t.peers[1].legal_actions())
            and any(isinstance(a, Beat) for a in t.peers[0].legal_actions())
        )

    scene = Scene.at(plain, bases["plain24"], stale_point)
    stale = scene.forger.move(1, PassBody())
    beat = next(a for a in scene.table.peers[0].legal_actions() if isinstance(a, Beat))
    scene.table.submit(scene.table.peers[0].act(beat))
    add(scene, "seat 1's pass signed before seat 0's beat, appended by the host after it", "R-PEER-32, R-PEER-12",
        [scene.forger.entry(stale)], invalid("stale-action", scene.length, host))

    # The end.
    scene = Scene.at(plain, bases["plain24"], phase_is(game.AUDIT))
    add(scene, "the host aborts with not-a-card while the audit runs", "R-PEER-37 (6)",
        [scene.forger.entry(scene.forger.move(0, AbortBody(None, "not-a-card", scene.length)))],
        invalid("game-over", scene.length, host))
    scene = Scene.at_entry(plain, bases["plain24"], n)
    add(scene, "an entry after the end of the game", "R-PEER-41",
        [scene.forger.entry(scene.forger.move(1, AbortBody(1, "leaving", n)))],
        unfinished(invalid("after-end", n, host), n + 1))
    # R-PEER-49: `verdicts` lists the verdicts of every entry before the failing one, also when that is after the end.
    from p2pdurak.peer.events import Verdict
    from p2pdurak.peer.verify import verdict_json

    cheat = base_game("cheat24")
    n_cheat = len(records_of(bases["cheat24"])) - 1
    scene = Scene.at_entry(cheat, bases["cheat24"], n_cheat)
    seen = [verdict_json(e) for s, e in scene.table.events if s == host and isinstance(e, Verdict)]
    assert seen, "the cheating game has verdicts"
    expected = unfinished(invalid("after-end", n_cheat, host), n_cheat + 1)
    expected["verdicts"] = seen
    add(scene, "an entry after the end of the cheating game: the verdicts before it are still reported",
        "R-PEER-41, R-PEER-49", [scene.forger.entry(scene.forger.move(1, AbortBody(1, "leaving", n_cheat)))], expected,
        name="cheat24")
    return out


# -- peer-host.json -------------------------------------------------------------------------------------------------


def host_cases(bases: dict[str, bytes]) -> list[HostCase]:
    out: list[HostCase] = []
    out += _honest_next_moves(bases)
    out += _refused_moves(bases)
    return out


def append() -> Json:
    return {"answer": "append"}


def reject(reason: str) -> Json:
    return {"answer": "reject", "reason": reason}


def ignore(reason: str) -> Json:
    return {"answer": "ignore", "reason": reason}


def _honest_next_moves(bases: dict[str, bytes]) -> list[HostCase]:
    """In every phase of each base game, the move the game actually went on with is appended."""
    out: list[HostCase] = []
    from p2pdurak.log import verify_genesis
    from p2pdurak.peer.peer import Peer

    for name in ("plain24", "cheat24", "transfer24"):
        records = records_of(bases[name])
        entries = [p for k, p in records[1:] if k == KIND_ENTRY]
        observer = Peer(verify_genesis(records[0][1]))
        seen: set[str] = set()
        for i, e in enumerate(entries):
            phase = observer.phase
            rules = observer.rules
            label = phase if rules is None or phase != game.PLAY else ("declaring" if rules.phase == DECLARING
                                                                        else "play")
            if label not in seen and (name == "plain24" or label not in (game.SHUFFLE, game.LOCK)):
                seen.add(label)
                move, _ = _move_of(e)
                out.append(HostCase(name, f"{name}: the move the game went on with in phase {label}", "R-PEER-43",
                                    "Honest", i, encode(move), append()))
            observer.receive(e)
    return out


def _refused_moves(bases: dict[str, bytes]) -> list[HostCase]:
    out: list[HostCase] = []
    plain = base_game("plain24")
    records = records_of(bases["plain24"])
    n = len(records) - 1

    def add(scene: Scene, comment: str, spec: str, move: bytes, expected: Json, name: str = "plain24") -> None:
        assert scene.table.entries == [p for k, p in records_of(bases[name])[1:] if k == KIND_ENTRY][
            : scene.length], "a host case must stand on a prefix of its base"
        out.append(HostCase(name, comment, spec, "Refused" if expected["answer"] != "append" else "Honest",
                            scene.length, move, expected))

    scene = Scene.at_entry(plain, bases["plain24"], 0)
    f = scene.forger
    add(scene, "seat 1 shuffles before seat 0", "R-MP-9", f.move_bytes(1, _move_of(records[1][1])[1].body),
        reject("out-of-turn"))
    add(scene, "a pass during the shuffle", "R-PEER-14", f.move(1, PassBody()), reject("out-of-phase"))
    add(scene, "an abort that accuses seat 5 of a 2-seat game", "R-PEER-37 (2)",
        f.move(1, AbortBody(5, "silent-seat", 0)), reject("bad-seat"))
    add(scene, "an abort whose reason is free text (reads like a proven fault)", "R-PEER-37 (3)",
        f.move(0, AbortBody(1, "bad-shuffle", 0)), reject("bad-abort-reason"))
    add(scene, "waited_entries beyond the chain", "R-PEER-37 (4)",
        f.move(0, AbortBody(0, "leaving", 1)), reject("bad-field"))
    add(scene, "the host names seat 1 silent while the game waits on the host's own shuffle", "R-PEER-37 (5)",
        f.move(0, AbortBody(1, "silent-seat", 0)), reject("not-waited-on"))
    add(scene, "seat 1 names seat 0 silent: the game waits on seat 0's shuffle", "R-PEER-37 (5)",
        f.move(1, AbortBody(0, "silent-seat", 0)), append())
    add(scene, "seat 1 names itself silent", "R-PEER-37 (5)", f.move(1, AbortBody(1, "silent-seat", 0)),
        reject("bad-field"))
    add(scene, "seat 1 leaves naming seat 0", "R-PEER-37 (7)", f.move(1, AbortBody(0, "leaving", 0)),
        reject("not-self"))
    add(scene, "seat 1 leaves: its own forfeit", "R-PEER-37 (7)", f.move(1, AbortBody(1, "leaving", 0)), append())
    add(scene, "not-a-card before any card was dealt", "R-PEER-37 (8)", f.move(1, AbortBody(None, "not-a-card", 0)),
        reject("out-of-phase"))
    good = f.move(1, PassBody())
    add(scene, "a move whose author signature does not verify", "R-LOG-13",
        good[:-1] + bytes((good[-1] ^ 1,)), ignore("bad-move-signature"))
    add(scene, "a move signed for another genesis", "R-LOG-14",
        sign_move(scene.table.identities[1], sha256(b"x"), 1, 1, f.head, encode(PassBody())), reject("wrong-game"))
    add(scene, "a move whose seen is not on the chain", "R-LOG-14", f.move(1, PassBody(), seen=sha256(b"y")),
        reject("unknown-seen"))
    add(scene, "a body with trailing bytes", "R-PEER-8", f.move_bytes(1, encode(PassBody()) + b"\x00"),
        reject("trailing-bytes"))
    # R-PEER-14, R-MP-8, R-MP-10: a DeckStep's deck message is decoded (any kind) before its kind is matched to the
    # phase; a shuffle's argument, whatever its length, is checked after the turn, the outputs and S.
    shuffle0 = _move_of(records[1][1])[1].body
    shuffle0_msg = decode(shuffle0, DeckStep).data
    shuffle1_msg = decode(_move_of(records[2][1])[1].body, DeckStep).data
    head = 1 + 33 * (plain.options.deck + 1)
    add(scene, "seat 0's shuffle one byte short: its argument has the wrong length", "R-MP-8, R-SHUF-7",
        f.move(0, DeckStep(shuffle0_msg[:-1])), reject("bad-shuffle-proof"))
    add(scene, "seat 0's shuffle cut inside its outputs", "R-MP-8", f.move(0, DeckStep(shuffle0_msg[:head - 1])),
        reject("bad-encoding"))
    add(scene, "seat 1 shuffles before seat 0, its argument one byte short: the turn is checked first", "R-MP-11",
        f.move(1, DeckStep(shuffle1_msg[:-1])), reject("out-of-turn"))
    add(scene, "a DeckStep holding a lock message of the wrong length during the shuffle", "R-PEER-14, R-MP-10",
        f.move(0, DeckStep(bytes((2,)) + bytes(10))), reject("bad-encoding"))
    add(scene, "a DeckStep holding an unknown deck message kind during the shuffle", "R-PEER-14, R-MP-8",
        f.move(0, DeckStep(bytes((9,)))), reject("bad-encoding"))
    add(scene, "a DeckStep holding a well-formed reveal during the shuffle", "R-PEER-14",
        f.move(0, DeckStep(RevealMsg(0, ((0, 1),)).to_bytes())), reject("out-of-phase"))

    scene = Scene.at(plain, bases["plain24"], phase_is(game.DEAL_ACK))
    f = scene.forger
    barrier = scene.observer.barrier
    add(scene, "an ack of the wrong entry", "R-PEER-17", f.move(1, Ack(barrier + 1)), reject("wrong-ack"))
    add(scene, "deal keys before the acks", "R-PEER-16",
        f.move(0, DeckStep(RevealMsg(0, ((0, 1),)).to_bytes())), reject("out-of-phase"))
    add(scene, "a DeckStep holding an unknown deck message kind during the acks: not decoded", "R-PEER-16",
        f.move(0, DeckStep(bytes((9,)))), reject("out-of-phase"))

    scene = Scene.at(plain, bases["plain24"], lambda t: t.peers[0].phase == game.DEAL_KEYS)
    f = scene.forger
    ctx = scene.table.host_peer.ctx
    due1 = game.due_keys(ctx, scene.observer, 1)
    sec1 = scene.table.peers[1].secrets
    assert sec1 is not None
    add(scene, "seat 1's deal keys with one position too many", "R-PEER-20",
        f.move(1, DeckStep(deckp.make_reveal(scene.observer.deck, sec1, (*due1, 13)).to_bytes())),
        reject("wrong-positions"))
    add(scene, "seat 1's deal keys, one of them wrong", "R-MP-15",
        f.move(1, DeckStep(RevealMsg(1, tuple((p, sec1.lock_keys[p] ^ 1) for p in due1)).to_bytes())),
        reject("wrong-key"))
    add(scene, "seat 1's deal keys", "R-PEER-20",
        f.move(1, DeckStep(deckp.make_reveal(scene.observer.deck, sec1, due1).to_bytes())), append())

    scene = Scene.at(plain, bases["plain24"], _declaring)
    f = scene.forger
    add(scene, "seat 1 declares before seat 0", "R-PEER-28", f.move(1, DeclareBody(None, None)),
        reject("not-your-turn"))
    add(scene, "a pass before the declarations are done", "R-PEER-28", f.move(0, PassBody()),
        reject("declarations-pending"))
    add(scene, "seat 0 declares with a position outside the starting hands", "R-PEER-29",
        f.move(0, DeclareBody(20, _key(scene, 0, 20))), reject("not-starting-hand"))
    add(scene, "seat 0 declares with a position of seat 1's starting hand", "R-PEER-29",
        f.move(0, DeclareBody(6, _key(scene, 0, 6))), reject("not-your-card"))
    add(scene, "a declaration of a position without its key", "R-PEER-29",
        f.move(0, DeclareBody(0, None)), reject("missing-key"))
    add(scene, "a declaration with a key but no position", "R-PEER-29",
        f.move(0, DeclareBody(None, _key(scene, 0, 0))), reject("bad-field"))

    scene = Scene.at(plain, bases["plain24"], _bout_open_by(0))
    f = scene.forger
    mine = _unopened_of(scene, 0)
    add(scene, "a play of a position beyond the deck", "R-PEER-23", f.move(0, PlayBody(30, None)),
        reject("bad-position"))
    add(scene, "a play whose key is the zero scalar", "R-GRP-2, R-PEER-23",
        f.move(0, PlayBody(mine[0], bytes(32))), reject("invalid-scalar"))
    add(scene, "a declaration after the declarations", "R-PEER-29", f.move(0, DeclareBody(None, None)),
        reject("not-declaring"))
    add(scene, "a take with no bout open", "R-PEER-24", f.move(1, TakeBody()), reject("bout-not-open"))
    add(scene, "a show of a trump in a game without transfers", "R-PEER-23, R-RULES-37",
        f.move(1, ShowTrumpBody(plain.options.deck - 1, None)), reject("show-disabled"))
    add(scene, "a DeckStep holding an unknown deck message kind in the play: not decoded", "R-PEER-24",
        f.move(0, DeckStep(bytes((9,)))), reject("out-of-phase"))
    add(scene, "the opener's card", "R-PEER-23", f.move(0, PlayBody(mine[0], _key(scene, 0, mine[0]))), append())

    def attacked(t: MemoryTable) -> bool:
        r = t.peers[0].rules
        return _in_play(t) and r is not None and len(r.attacks) == 1 and r.attacker == 0 and -1 in r.beats

    scene = Scene.at(plain, bases["plain24"], attacked)
    f = scene.forger
    rules = scene.observer.rules
    assert rules is not None
    on_table = {rank_of(c) for c in rules.attacks}
    off_rank = [p for p in _unopened_of(scene, 0) if rank_of(scene.table.peers[0].card_at(p)) not in on_table]
    add(scene, "a throw-in of a rank that is not on the table", "R-PEER-23",
        f.move(0, PlayBody(off_rank[0], _key(scene, 0, off_rank[0]))), reject("rank-not-on-table"))
    add(scene, "a pass whose author saw the table before the last card", "R-PEER-32",
        f.move(1, PassBody(), seen=f.hash_at(scene.length - 1)), reject("stale-action"))
    add(scene, "a beat by the attacker", "R-PEER-23",
        f.move(0, BeatBody(0, off_rank[0], _key(scene, 0, off_rank[0]))), reject("not-defender"))
    add(scene, "the defender takes", "R-PEER-24", f.move(1, TakeBody()), append())

    scene = Scene.at(plain, bases["plain24"], phase_is(game.AUDIT))
    add(scene, "not-a-card once the audit has begun", "R-PEER-37 (6)",
        scene.forger.move(0, AbortBody(None, "not-a-card", 1)), reject("game-over"))
    add(scene, "leaving once the audit has begun", "R-PEER-37 (6)",
        scene.forger.move(1, AbortBody(1, "leaving", 1)), reject("game-over"))
    add(scene, "a DeckStep holding an unknown deck message kind during the audit", "R-PEER-38, R-MP-8",
        scene.forger.move(0, DeckStep(bytes((9,)))), reject("bad-encoding"))
    add(scene, "a DeckStep holding a well-formed reveal during the audit", "R-PEER-38",
        scene.forger.move(0, DeckStep(RevealMsg(0, ((0, 1),)).to_bytes())), reject("out-of-phase"))
    add(scene, "the host names a seat that has not published its audit", "R-PEER-37 (5)",
        scene.forger.move(0, AbortBody(1, "silent-seat", 1)), append())
    scene = Scene.at_entry(plain, bases["plain24"], n)
    add(scene, "a move after the end", "R-PEER-41", scene.forger.move(1, PassBody()), reject("game-over"))

    out += _cheating_cases(bases)
    out += _transfer_cases(bases)
    return out


def _transfer_cases(bases: dict[str, bytes]) -> list[HostCase]:
    """transfer24 (transfer, show_trump, first_bout_five): a legal transfer and a legal show, then a transfer
    after a beat."""
    from p2pdurak.rules import ShowTrump, Transfer

    out: list[HostCase] = []
    name = "transfer24"
    base = base_game(name)

    def defender_can(kind: type) -> Callable[[MemoryTable], bool]:
        def pred(t: MemoryTable) -> bool:
            r = t.peers[0].rules
            return _in_play(t) and r is not None and bool(r.attacks) and any(
                isinstance(a, kind) for a in t.peers[r.defender].legal_actions())

        return pred

    for kind, what in ((Transfer, "transfers the attack"), (ShowTrump, "shows a trump of the attack rank")):
        scene = Scene.at(base, bases[name], defender_can(kind))
        rules = scene.observer.rules
        assert rules is not None
        peer = scene.table.peers[rules.defender]
        action = next(a for a in peer.legal_actions() if isinstance(a, kind))
        out.append(HostCase(name, f"the defender {what}", "R-PEER-23, R-RULES-26, R-RULES-27", "Honest",
                            scene.length, scene.forger.move(rules.defender, peer.body_for(action)), append()))

    def beaten_once(t: MemoryTable) -> bool:
        r = t.peers[0].rules
        return _in_play(t) and r is not None and any(b >= 0 for b in r.beats) and -1 in r.beats and not r.taken

    scene = Scene.at(base, bases[name], beaten_once)
    rules = scene.observer.rules
    assert rules is not None
    held = _unopened_of(scene, rules.defender)
    body = TransferBody(held[0], _key(scene, rules.defender, held[0]))
    out.append(HostCase(name, "a transfer after the defender has beaten a card", "R-PEER-23, R-RULES-37", "Refused",
                        scene.length, scene.forger.move(rules.defender, body), reject("transfer-after-beat")))
    return out


def _cheating_cases(bases: dict[str, bytes]) -> list[HostCase]:
    out: list[HostCase] = []
    cheat = base_game("cheat24")

    def own_card_on_table(t: MemoryTable) -> bool:
        r = t.peers[0].rules
        return _in_play(t) and r is not None and any(rec.author == 1 for rec in r.plays)

    scene = Scene.at(cheat, bases["cheat24"], own_card_on_table)
    rules = scene.observer.rules
    assert rules is not None
    card = next(rec.card for rec in rules.plays if rec.author == 1)
    position = scene.observer.opened.index(card)
    f = scene.forger
    for seat, expected, comment in (
        (1, reject("own-card"), "seat 1 challenges its own card"),
        (0, append(), "seat 0 challenges seat 1's card on the table"),
    ):
        out.append(HostCase("cheat24", comment, "R-PEER-34", "Refused" if seat == 1 else "Honest", scene.length,
                            f.move(seat, ChallengeBody(position)), expected))
    hidden = next(p for p, s in enumerate(scene.observer.owner) if s == 1 and scene.observer.opened[p] == game.NO_CARD)
    out.append(HostCase("cheat24", "a challenge of a position that was never opened", "R-PEER-34", "Refused",
                        scene.length, f.move(0, ChallengeBody(hidden)), reject("not-on-table")))
    return out


# -- peer-messages.json ---------------------------------------------------------------------------------------------


def message_groups() -> list[Json]:
    from p2pdurak.conformance.log_vectors import message_to_json
    from p2pdurak.rules import Options

    key = bytes(range(1, 33))
    valid_bodies: list[tuple[str, object]] = [
        ("a deck step (a reveal of position 3)", DeckStep(RevealMsg(0, ((3, 5),)).to_bytes())),
        ("an ack of entry 7", Ack(7)),
        ("an ack of entry 70000 (uint32 form)", Ack(70000)),
        ("a declaration: no trump", DeclareBody(None, None)),
        ("a declaration of position 4 with its key", DeclareBody(4, key)),
        ("a declaration of an open position", DeclareBody(4, None)),
        ("a play of position 10 with its key", PlayBody(10, key)),
        ("a play of an open position", PlayBody(200, None)),
        ("a beat of attack card 2", BeatBody(2, 11, key)),
        ("a transfer", TransferBody(12, key)),
        ("a shown trump", ShowTrumpBody(13, None)),
        ("a take", TakeBody()),
        ("a pass", PassBody()),
        ("a challenge of position 9", ChallengeBody(9)),
        ("an abort naming seat 2 silent", AbortBody(2, "silent-seat", 41)),
        ("an abort naming seat 2 silent with a receipt (the field's bytes are not decoded here)",
         AbortBody(2, "silent-seat", 41, bytes(range(146)))),
        ("an abort accusing nobody", AbortBody(None, "not-a-card", 0)),
    ]
    tests: list[Json] = []
    for comment, body in valid_bodies:
        data = encode(body)
        tests.append({"tcId": 0, "comment": comment, "spec": "R-PEER-8", "result": "valid", "flags": ["Valid"],
                      "messageType": type(body).__name__, "input": data.hex(), "fields": message_to_json(body)})

    def bad(comment: str, data: bytes, reason: str, flag: str = "Malformed") -> None:
        tests.append({"tcId": 0, "comment": comment, "spec": "R-PEER-8, R-WIRE-9", "result": "invalid",
                      "flags": [flag], "messageType": "MoveBody", "input": data.hex(), "reason": reason})

    bad("a pass with a field", bytes((0x92, 0x29, 0x00)), "field-count")
    bad("a take as a bare integer", bytes((0x28,)), "not-a-message")
    bad("a play whose key has 31 bytes", bytes((0x93, 0x24, 0x01, 0xC4, 31)) + bytes(31), "bad-field")
    bad("a play whose key is a str", bytes((0x93, 0x24, 0x01, 0xBF)) + b"a" * 31, "bad-field")
    bad("a play of position 256", bytes((0x93, 0x24, 0xCD, 0x01, 0x00, 0xC0)), "bad-field")
    bad("a play of position 5 in a non-minimal uint8", bytes((0x93, 0x24, 0xCC, 0x05, 0xC0)), "non-canonical")
    bad("an ack of 2^32", bytes((0x92, 0x22, 0xCF, 0, 0, 0, 1, 0, 0, 0, 0)), "bad-field")
    bad("an abort with an upper-case reason", encode_abort("Missing"), "bad-field")
    bad("an abort with an empty reason", encode_abort(""), "bad-field")
    bad("an abort accusing seat true", bytes((0x95, 0x2B, 0xC3, 0xA1, 0x78, 0x00, 0xC0)), "bad-field")
    bad("an abort without its receipt field (4 fields)", bytes((0x94, 0x2B, 0x02, 0xA1, 0x78, 0x00)), "field-count")
    bad("an abort whose receipt is an empty bin", bytes((0x95, 0x2B, 0x02, 0xA1, 0x78, 0x00, 0xC4, 0x00)),
        "bad-field")
    bad("an abort whose receipt is 257 bytes", bytes((0x95, 0x2B, 0x02, 0xA1, 0x78, 0x00, 0xC5, 0x01, 0x01))
        + bytes(257), "bad-field")
    bad("a Move envelope (tag 0x05) where a body belongs", bytes((0x93, 0x05, 0xC4, 0x00, 0xC4, 0x00)),
        "unexpected-type")
    bad("GameOptions (tag 0x20) where a body belongs", encode(GameOptions.of(Options())), "unexpected-type")
    bad("a transport Ping (tag 0x6F) where a body belongs: a type of the specification, though a verifier need not "
        "load the transport (R-WIRE-9)", bytes((0x91, 0x6F)), "unexpected-type")
    bad("tag 0x2C, not a body", bytes((0x91, 0x2C)), "unknown-type")

    options_tests: list[Json] = []

    def opt(comment: str, data: bytes, seats: int, result: str, **extra: Any) -> None:
        genesis = _genesis_with(data, seats).hex()
        options_tests.append({"tcId": 0, "comment": comment, "spec": "R-PEER-4, R-PEER-5", "result": result,
                              "flags": ["GameOptions"], "input": data.hex(), "genesis": genesis, **extra})

    for o, prev in ((Options(), None), (Options(24, 3, transfer=True, show_trump=True), 1),
                    (Options(36, 4, teams="2v2", cheating=True, first_bout_five=True), None),
                    (Options(52, 6, teams="pairs"), 5)):
        go = GameOptions.of(o, prev)
        opt(f"options {o.describe()}" + (f", previous durak {prev}" if prev is not None else ""), encode(go),
            o.players, "valid", options=o.describe(), previousDurak=prev, shuffleProofs=True)
    raw = encode(GameOptions(36, 2, False, False, False, 0, False, None, True))

    def refused(comment: str, data: bytes, seats: int = 2, wire: str | None = None) -> None:
        extra: dict[str, Any] = {"reason": "bad-options", "seat": 0}
        if wire is not None:
            extra["wireReason"] = wire
        opt(comment, data, seats, "invalid", **extra)

    refused("deck 30", raw.replace(b"\x24\x02", b"\x1e\x02", 1))
    refused("7 players (a roster of 2)", raw.replace(b"\x24\x02", b"\x24\x07", 1))
    refused("3 players in the options, 2 seats in the roster", raw.replace(b"\x24\x02", b"\x24\x03", 1))
    refused("team code 4", encode(GameOptions(36, 4, False, False, False, 4, False, None, True)), 4)
    refused("teams 2v2 with 3 players", encode(GameOptions(36, 3, False, False, False, 1, False, None, True)), 3)
    refused("show_trump without transfer", encode(GameOptions(36, 2, False, True, False, 0, False, None, True)))
    refused("a 24-card deck for 5 players", encode(GameOptions(24, 5, False, False, False, 0, False, None, True)), 5)
    refused("previous durak 2 in a 2-player game", encode(GameOptions(36, 2, False, False, False, 0, False, 2, True)))
    refused("shuffle_proofs as the integer 1", raw[:-1] + b"\x01", wire="bad-field")
    refused("a field missing", bytes((0x99,)) + raw[1:-1], wire="field-count")
    refused("not msgpack at all", b"\xc1", wire="not-msgpack")
    return [{"type": "PeerMessage", "tests": tests}, {"type": "GameOptions", "tests": options_tests}]


def _genesis_with(options: bytes, seats: int) -> bytes:
    """A genesis signed by `seats` seeded identities (host 0) whose options field holds exactly these bytes."""
    from p2pdurak.crypto.identity import Identity
    from p2pdurak.log import assemble_genesis, make_genesis_data, sign_genesis
    from p2pdurak.peer.harness import NAMES
    from p2pdurak.randomness import SeededRng

    rng = SeededRng(4242)
    identities = [Identity.generate(rng) for _ in range(seats)]
    data = make_genesis_data(bytes(range(16)), options, 0, [(NAMES[i], x.public) for i, x in enumerate(identities)])
    return assemble_genesis(data, [sign_genesis(x, data) for x in identities])


def encode_abort(reason: str) -> bytes:
    text = reason.encode()
    return bytes((0x95, 0x2B, 0x02, 0xA0 | len(text))) + text + b"\x00\xc0"


_ = (field, KIND_GENESIS, MoveData)

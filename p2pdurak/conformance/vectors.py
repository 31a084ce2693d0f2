"""Protocol vectors of the peer layer (SPEC.md 8.16): `python -m p2pdurak.conformance.vectors [--check]`.

transcript-valid.json: complete games (verify: valid, with the result and every verdict).
transcript-tampered.json: a base game changed by record and byte edits, or continued with crafted entries
  (verify: invalid, with the reason, the entry and the seat at fault; or unreadable).
peer-host.json: a prefix of a base game and one move: does the host append it or reject it, and why.
peer-messages.json: the move bodies and GameOptions, valid and invalid bytes.

Every seat's key and deck secrets come from fixed seeds, so regenerating gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.conformance import crafted
from p2pdurak.conformance.abort_cases import abort_cases
from p2pdurak.conformance.accusations import accusation_cases
from p2pdurak.conformance.forge import play_until
from p2pdurak.conformance.host import host_answer
from p2pdurak.conformance.receipt_cases import receipt_cases
from p2pdurak.conformance.report_cases import REPORT_NOTES, report_cases
from p2pdurak.conformance.scenes import BASE_GAMES, BaseGame, Scene, phase_is
from p2pdurak.conformance.transcripts import Json, rebuild, records_of, sha256_hex, verify_outcome
from p2pdurak.conformance.wire_vectors import VECTOR_DIR, main_for
from p2pdurak.log import KIND_ENTRY, KIND_GENESIS
from p2pdurak.peer.events import Verdict
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.verify import reported_claims, result_json, verdict_json

VALID_FILE = "transcript-valid.json"
TAMPERED_FILE = "transcript-tampered.json"
HOST_FILE = "peer-host.json"
MESSAGES_FILE = "peer-messages.json"
GENERATOR = "python -m p2pdurak.conformance.vectors"


def _file(algorithm: str, spec: str, notes: Json, groups: list[Json], **extra: Any) -> Json:
    tc = 0
    for group in groups:
        for case in group["tests"]:
            tc += 1
            case["tcId"] = tc
    doc: Json = {
        "algorithm": algorithm,
        "suite": SUITE,
        "version": PROTOCOL_VERSION,
        "spec": spec,
        "generator": GENERATOR,
        "notes": notes,
    }
    doc.update(extra)
    doc["numberOfTests"] = tc
    doc["testGroups"] = groups
    return doc


def _case(comment: str, spec: str, result: str, flags: list[str], **fields: Any) -> Json:
    return {"tcId": 0, "comment": comment, "spec": spec, "result": result, "flags": flags, **fields}


# -- transcript-valid.json ------------------------------------------------------------------------------------------


def _seat_view(scene: Scene) -> Json:
    """The expected outcome as the seats themselves saw it (with their secrets), not as the verifier computes it."""
    table = scene.table
    host_peer = table.peers[table.genesis.host]
    snap = host_peer.snapshot
    verdicts = [verdict_json(e) for s, e in table.events if s == table.genesis.host and isinstance(e, Verdict)]
    ending = snap.ending
    return {
        "exitCode": 0,
        "valid": True,
        "reason": None,
        "entry": None,
        "seat": None,
        "how": ending.kind if ending is not None else None,
        "entries": len(table.entries),
        "result": result_json(snap.final),
        "verdicts": verdicts,
    }


def _claims_of(scene: Scene) -> list[Json]:
    peer = scene.table.peers[scene.table.genesis.host]
    return [c.to_json() for c in reported_claims(peer)]


def _aborted_games() -> list[tuple[BaseGame, Scene, str, str]]:
    """Games ended by an abort (R-PEER-37..R-PEER-40): who loses is only what the record proves."""
    from p2pdurak.rules import Options

    out: list[tuple[BaseGame, Scene, str, str]] = []

    def in_deal_keys(base: BaseGame) -> Scene:
        scene = Scene(base)
        play_until(scene.table, scene.choosers, scene.rng, phase_is("deal-keys"))
        keys = scene.table.peers[0].protocol_move()
        assert keys is not None
        scene.table.submit(keys)
        return scene

    base = BaseGame("abort24", "2 players, 24 cards, a claim answered in the deal", Options(24, 2), 11, "R-PEER-38a")
    scene = in_deal_keys(base)
    scene.table.submit(scene.table.peers[0].abort(1, "silent-seat"))
    play_until(scene.table, scene.choosers, scene.rng, lambda t: all(p.over for p in t.peers))
    out.append((base, scene, "seat 0 names seat 1 silent in the deal (at a table of two nobody could attest it); "
                "seat 1 then publishes its keys, which answers the claim, and the game is played to its end",
                "UnprovenClaim"))

    base = BaseGame("silent24x3", "3 players, 24 cards, a silent seat in the deal", Options(24, 3), 12,
                    "R-PEER-38a")
    scene = in_deal_keys(base)
    scene.table.submit(scene.table.peers[0].abort(1, "silent-seat"))
    scene.table.submit(scene.table.peers[2].abort(1, "silent-seat"))
    table = scene.table
    for seat in (0, 2):
        move = table.peers[seat].protocol_move()
        assert move is not None
        table.submit(move)
    assert all(p.over for p in table.peers), "the attested game did not end"
    out.append((base, scene, "seat 0 names seat 1 silent in the deal and seat 2 signs it too: the silence is "
                "attested, seat 1 loses and publishes no audit", "AttestedSilence"))

    return out


def _team_forfeit_game() -> tuple[BaseGame, Scene]:
    """4 players, 24 cards, teams 2v2: once the first card is on the table, seat 2 aborts accusing itself
    (`leaving`, its own signed forfeit); every other seat audits. R-PEER-39, R-RULES-32: its team {0, 2} loses."""
    from p2pdurak.rules import PLAYING, Options

    base = BaseGame("team24", "4 players, 24 cards, teams 2v2, seat 2 leaves in the first bout",
                    Options(24, 4, teams="2v2"), 12, "R-PEER-39")
    scene = Scene(base)
    table = scene.table

    def bout_open(t: MemoryTable) -> bool:
        r = t.peers[0].rules
        return t.peers[0].phase == "play" and r is not None and r.phase == PLAYING and bool(r.attacks)

    play_until(table, scene.choosers, scene.rng, bout_open)
    table.submit(table.peers[2].abort(2, "leaving"))
    while table.step_protocol():
        pass
    assert all(p.over for p in table.peers), "the team game did not end"
    final = table.peers[0].result
    assert final is not None and final.durak is None and final.losing_team == (0, 2) and final.forfeit == 2
    return base, scene


def generate_valid() -> Json:
    tests: list[Json] = []
    for base in BASE_GAMES:
        scene = Scene(base)
        scene.play_to_end()
        tests.append(
            _case(
                f"a complete game: {base.comment}", base.spec, "valid", ["CompleteGame"],
                name=base.name, options=base.options.describe(), input=scene.table.transcript().hex(),
                expected=_seat_view(scene),
            )
        )
    for base, scene, comment, flag in _aborted_games():
        tests.append(
            _case(
                f"an aborted game: {comment}", f"R-PEER-37..R-PEER-40, {base.spec}", "valid", ["Abort", flag],
                name=base.name, options=base.options.describe(), input=scene.table.transcript().hex(),
                expected={**_seat_view(scene), "claims": _claims_of(scene)},
            )
        )
    base, scene = _team_forfeit_game()
    tests.append(
        _case(
            "a team game (2v2) that seat 2 leaves in the first bout: its team {0, 2} loses, durak null, forfeit 2",
            "R-PEER-37, R-PEER-39, R-RULES-32", "valid", ["Abort", "Leaving"], name=base.name,
            options=base.options.describe(), input=scene.table.transcript().hex(),
            expected={**_seat_view(scene), "claims": _claims_of(scene)},
        )
    )
    from p2pdurak.conformance import reorder

    scene = reorder.reordered_game()
    tests.append(
        _case(
            "a cheating game in which seat 1 and the host each throw in an illegal card and the defender challenges "
            "the host's; the host appends its own challenge of seat 1's card first, whose rollback takes the host's "
            "card back too; the defender's challenge, judged against the table it saw, still catches the host; then "
            "seat 1 leaves (the verdicts of a game that ends early are listed all the same)",
            reorder.BASE.spec, "valid", ["Abort", "Leaving", "ReorderedChallenges"], name=reorder.BASE.name,
            options=reorder.BASE.options.describe(), input=scene.table.transcript().hex(),
            expected=_seat_view(scene),
        )
    )
    notes = {
        "ReorderedChallenges": "issue 28 attack 1: two challenges signed on one table, appended in the order the host "
        "chose; each is judged against the table its signer saw (R-RULES-30), so `verdicts` catches both cheats",
        "CompleteGame": "a whole game played by honest seats: `p2pdurak verify --json` on `input` MUST print the "
        "keys of `expected` with these values (exit code 0)",
        "Abort": "an abort entry ends the game; who loses is only what the record proves (R-PEER-40)",
        "UnprovenClaim": "a silent-seat claim answered by the next entry before every other seat signed it: the game "
        "goes on and nobody loses by it",
        "AttestedSilence": "a silent-seat claim signed by every seat but the accused (at least two): the accused "
        "loses and owes no audit",
        "Leaving": "an abort naming its own author with reason leaving: the author's own forfeit",
        "expected": "a subset of the `verify --json` object (SPEC.md R-PEER-49): valid, reason, entry, seat, how, "
        "entries, result, verdicts, players, accusation, claims; exitCode is the exit status of `verify`",
    }
    return _file("p2pdurak transcripts (valid games)", "SPEC.md 8", notes, [{"type": "Transcript", "tests": tests}])


# -- transcript-tampered.json ---------------------------------------------------------------------------------------


def bases_ref(valid: Json) -> dict[str, Json]:
    return {
        case["name"]: {"file": VALID_FILE, "tcId": case["tcId"]}
        for group in valid["testGroups"]
        for case in group["tests"]
    }


def _base_bytes(valid: Json) -> dict[str, bytes]:
    return {case["name"]: bytes.fromhex(case["input"]) for g in valid["testGroups"] for case in g["tests"]}


def generate_tampered(valid: Json) -> Json:
    bases = _base_bytes(valid)
    tests: list[Json] = []
    for t in tampered_cases(bases):
        data = rebuild(bases[t.base], t.edit)
        result = "valid" if t.expected.get("valid") else "invalid"
        case = _case(t.comment, t.spec, result, [t.flag], base=t.base, **t.edit, sha256=sha256_hex(data),
                     expected=t.expected)
        tests.append(case)
    notes = {
        "records": "the file is rebuilt as the 15-byte header, then for each item of `records` either the base's "
        "record with that index (0 is the genesis, k+1 is entry k) or the record {kind, payload}; without "
        "`records` the base's records are kept",
        "fileEdits": "then, in order: {offset, xor} xors one byte of the rebuilt file, {cut} keeps its first `cut` "
        "bytes; `sha256` is the hash of the result",
        "expected": "as in transcript-valid.json: the keys `verify --json` MUST print (exitCode 0: valid, 1: "
        "invalid, 2: not a transcript file); a case whose `result` is valid crafts a game that verifies",
        "HostFault": "an entry that the host should not have appended: the host signed it, so it is at fault "
        "(R-PEER-12)",
    }
    flags = sorted({t.flag for t in tampered_cases(bases)})
    from p2pdurak.conformance.abort_cases import FLAG_NOTES as ABORT_NOTES
    from p2pdurak.conformance.receipt_cases import FLAG_NOTES as RECEIPT_NOTES

    flag_notes = {**crafted.FLAG_NOTES, **ABORT_NOTES, **REPORT_NOTES, **RECEIPT_NOTES}
    notes.update({f: flag_notes[f] for f in flags if f in flag_notes})
    return _file(
        "p2pdurak transcripts (tampered)", "SPEC.md 7.7, 8.4, 8.14", notes,
        [{"type": "TamperedTranscript", "tests": tests}], bases=bases_ref(valid),
    )


# -- peer-host.json -------------------------------------------------------------------------------------------------


def generate_host(valid: Json) -> Json:
    bases = _base_bytes(valid)
    tests: list[Json] = []
    for h in crafted.host_cases(bases):
        result = "valid" if h.expected["answer"] == "append" else "invalid"
        tests.append(_case(h.comment, h.spec, result, [h.flag], base=h.base, entries=h.entries, move=h.move.hex(),
                           expected=h.expected))
    notes = {
        "HostValidation": "follow the base transcript's first `entries` entries, then submit `move` to the host: "
        "`expected.answer` is append (the move becomes the next entry), reject (a signed Reject with "
        "`expected.reason`) or ignore (not an authentic move: no reject)",
    }
    return _file("p2pdurak host validation", "SPEC.md 7.5, 8.13", notes,
                 [{"type": "HostValidation", "tests": tests}], bases=bases_ref(valid))


# -- peer-messages.json ---------------------------------------------------------------------------------------------


def generate_messages() -> Json:
    groups = crafted.message_groups()
    notes = {
        "PeerMessage": "decode `input` as one of the move bodies (R-PEER-8): valid with `fields` (bin as hex, "
        "nil as null), or invalid with the section 6 reason",
        "GameOptions": "`genesis` is a genesis signed by seeded seats whose options field is `input`: checking it "
        "as a peer does (R-LOG-5, R-PEER-5) accepts it, and `input` decodes to `options` (Options notation), "
        "`previousDurak` and `shuffleProofs`; or refuses it with `reason` and the host (`seat`) at fault; "
        "`wireReason` is the section 6 code of decoding `input` alone",
    }
    return _file("p2pdurak peer messages", "SPEC.md 8.2, 8.3", notes, groups)


def tampered_cases(bases: dict[str, bytes]) -> list[crafted.Tampered]:
    """Every case of transcript-tampered.json, in file order: crafted.py's, then the aborts', the accusations', the
    report's, the receipts' and issue 28's reorder (those build on crafted.py's helpers, so they are gathered here,
    above them all)."""
    from p2pdurak.conformance.reorder import reject_case

    return [*crafted.tampered_cases(bases), *abort_cases(bases), *accusation_cases(bases), *report_cases(bases),
            *receipt_cases(bases), reject_case()]


# -- files ----------------------------------------------------------------------------------------------------------


def generate_all() -> dict[str, Json]:
    valid = generate_valid()
    return {
        VALID_FILE: valid,
        TAMPERED_FILE: generate_tampered(valid),
        HOST_FILE: generate_host(valid),
        MESSAGES_FILE: generate_messages(),
    }


def dump(doc: Json) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def _makers() -> dict[str, Callable[[], Json]]:
    cache: dict[str, Json] = {}

    def get(name: str) -> Callable[[], Json]:
        def make() -> Json:
            if not cache:
                cache.update(generate_all())
            return cache[name]

        return make

    return {name: get(name) for name in (VALID_FILE, TAMPERED_FILE, HOST_FILE, MESSAGES_FILE)}


def main(argv: list[str] | None = None) -> int:
    return main_for(_makers(), argv)


_ = (records_of, verify_outcome, host_answer, KIND_ENTRY, KIND_GENESIS, VECTOR_DIR)

if __name__ == "__main__":
    raise SystemExit(main())

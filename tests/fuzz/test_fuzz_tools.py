"""The fuzzer's own parts: the permissive msgpack tree, the mutators, peer forks, the runner and the CLI, and
checks that the targets' oracles do fail when the code under test misbehaves."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.fuzz import lenient, targets_peer, targets_wire
from p2pdurak.fuzz.__main__ import main
from p2pdurak.fuzz.corpus import game, wire_seeds
from p2pdurak.fuzz.fork import fork
from p2pdurak.fuzz.lenient import Node
from p2pdurak.fuzz.mutate import mutated
from p2pdurak.fuzz.runner import run
from p2pdurak.fuzz.target import FuzzFailure, Target
from p2pdurak.fuzz.targets_peer import OBSERVER, prefixes
from p2pdurak.log import encode_transcript
from p2pdurak.peer.verify import VerifyReport
from p2pdurak.wire import DecodeError, decode_any, decode_value


def test_fuzz_lenient_reads_and_writes_every_seed_back() -> None:
    for data in wire_seeds():
        tree = lenient.parse(data)
        assert tree is not None
        assert lenient.write(tree) == data
        assert lenient.write(lenient.canonical(tree)) == data


def test_fuzz_lenient_keeps_foreign_encodings_and_refuses_what_is_not_one_value() -> None:
    foreign = bytes.fromhex("93cb3ff0000000000000810102d0ff")  # [1.0 (float64), {1: 2}, -1 (int8)]
    tree = lenient.parse(foreign)
    assert tree is not None and [n.kind for n in tree.items] == ["raw", "raw", "raw"]
    assert lenient.write(tree) == foreign
    assert lenient.parse(b"\x92\x01") is None  # cut short
    assert lenient.parse(b"\x01\x02") is None  # two values
    assert lenient.parse(b"\xc1") is None  # never used


@given(st.integers(0, 2**64 - 1), st.data())
def test_fuzz_every_longer_form_of_an_int_is_refused_as_non_canonical(n: int, data: st.DataObject) -> None:
    forms = lenient.forms_for(Node("uint", n))
    assert lenient.write(Node("uint", n)) == lenient.write(Node("uint", n, form=forms[0]))
    assert decode_value(lenient.write(Node("uint", n))) == n
    longer = data.draw(st.sampled_from(forms[1:])) if len(forms) > 1 else None
    if longer is not None:
        with pytest.raises(DecodeError) as info:
            decode_value(lenient.write(Node("uint", n, form=longer)))
        assert info.value.reason == "non-canonical"


@given(st.binary(max_size=300), st.sampled_from(("bin", "str")), st.data())
def test_fuzz_every_longer_length_header_is_refused(blob: bytes, kind: str, data: st.DataObject) -> None:
    node = Node(kind, blob)
    forms = lenient.forms_for(node)
    for form in forms[1:]:
        with pytest.raises(DecodeError) as info:
            decode_value(lenient.write(dataclasses.replace(node, form=form)))
        assert info.value.reason in ("non-canonical", "not-msgpack")  # not-msgpack: a str that is not UTF-8


def test_fuzz_mutations_differ_from_the_seeds() -> None:
    seeds = wire_seeds()[:4]
    drawn: list[bytes] = []

    @settings(max_examples=200, derandomize=True, database=None)
    @given(mutated(seeds))
    def collect(data: bytes) -> None:
        drawn.append(data)

    collect()
    changed = [d for d in drawn if d not in seeds]
    assert len(changed) >= 0.8 * len(drawn)
    assert len(set(changed)) >= 0.5 * len(changed)


def test_fuzz_a_fork_is_independent_and_behaves_like_a_replay() -> None:
    table = game(0)
    forks = prefixes(0, OBSERVER)
    k = 20
    original = forks[k]
    length, snapshot, versions = original.chain.length, original.snapshot, list(original.versions)
    copy = fork(original)
    copy.receive(table.entries[k])
    assert copy.faulted is None and copy.chain.length == k + 1
    assert copy.snapshot == forks[k + 1].snapshot
    assert (original.chain.length, original.snapshot, original.versions) == (length, snapshot, versions)
    assert original.chain.head != copy.chain.head


def _toy(check: Any) -> Target:
    return Target("toy", "a toy target", lambda: st.integers(0, 1000), check)


def test_fuzz_runner_counts_every_input() -> None:
    report = run(_toy(lambda n: "even" if n % 2 == 0 else "odd"), budget=50, derandomize=True)
    assert report.failure is None
    assert report.inputs == 50 == sum(report.outcomes.values())
    assert set(report.outcomes) == {"even", "odd"}


def test_fuzz_runner_reports_a_broken_property_with_the_shrunk_input() -> None:
    def check(n: int) -> str:
        if n >= 500:
            raise FuzzFailure(f"{n} is too big")
        return "small"

    report = run(_toy(check), budget=500, derandomize=True)
    assert report.failure == "500 is too big"
    assert report.failing_input == "500" and report.failing_case == 500


def test_fuzz_runner_turns_a_hang_into_a_failure() -> None:
    def check(n: int) -> str:
        while n >= 0:
            n += 1
        return "never"

    report = run(_toy(check), budget=5, derandomize=True, hang_seconds=0.2)
    assert report.failure is not None and "longer than" in report.failure


def test_fuzz_cli_lists_and_runs_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    listed = capsys.readouterr().out
    assert "peer-receive" in listed and "wire" in listed
    assert main(["wire", "log-move", "--budget", "20"]) == 0
    out = capsys.readouterr().out
    assert "wire: ok, 20 inputs" in out and "log-move: ok, 20 inputs" in out
    assert "40 inputs tried over 2 target(s)" in out
    with pytest.raises(SystemExit):
        main(["no-such-target", "--budget", "1"])


# ------------------------------------------------------------------------------------------------- oracles

def test_fuzz_wire_oracle_fails_on_a_decoder_that_raises_something_else(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(data: bytes, **_: object) -> object:
        raise IndexError("boom")

    monkeypatch.setattr(targets_wire, "decode_any", broken)
    with pytest.raises(FuzzFailure, match="IndexError"):
        targets_wire.check(wire_seeds()[0])


def test_fuzz_wire_oracle_fails_on_a_decoder_that_takes_a_longer_form(monkeypatch: pytest.MonkeyPatch) -> None:
    seed = wire_seeds()[0]
    tree = lenient.parse(seed)
    assert tree is not None
    longer = lenient.write(dataclasses.replace(tree, form=2))  # the outer array in a 16-bit header
    real = decode_any
    monkeypatch.setattr(targets_wire, "decode_value", lambda data: decode_value(seed))
    monkeypatch.setattr(targets_wire, "decode_any", lambda data: real(seed))
    with pytest.raises(FuzzFailure):
        targets_wire.check(longer)


def test_fuzz_peer_oracle_fails_on_a_receive_that_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    table = game(0)
    case = targets_peer.Case(0, OBSERVER, 3, targets_peer.MUTATED, table.entries[3][:-1])

    def broken(self: object, entry: bytes) -> list[object]:
        raise KeyError("boom")

    assert targets_peer.check_receive(case).startswith("faulted:")
    monkeypatch.setattr("p2pdurak.peer.peer.Peer.receive", broken)
    with pytest.raises(FuzzFailure, match="KeyError"):
        targets_peer.check_receive(case)


def test_fuzz_transcript_oracle_fails_on_a_verifier_that_says_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    table = game(0)
    changed = encode_transcript(table.genesis_bytes, table.entries[:-1])
    case = targets_peer.Case(0, OBSERVER, 0, targets_peer.MUTATED, changed)
    assert targets_peer.check_transcript(case).startswith("invalid:")
    monkeypatch.setattr(targets_peer, "verify_transcript_bytes",
                        lambda data: VerifyReport(True, None, None, None, "valid", 0))
    with pytest.raises(FuzzFailure, match="valid"):
        targets_peer.check_transcript(case)

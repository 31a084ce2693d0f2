"""Exact bytes of the deck messages and of the seat secrets: round trips and strict decoding."""

import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.crypto import deck as dp
from p2pdurak.crypto.deck_errors import DeckUsageError
from p2pdurak.crypto.deck_messages import AuditMsg, RevealMsg, decode
from p2pdurak.crypto.group import N, scalar_to_bytes
from p2pdurak.crypto.secrets_store import SeatSecrets, load_secrets, save_secrets
from p2pdurak.errors import PeerFault
from p2pdurak.randomness import SeededRng
from tests.crypto.deck_fixtures import dealt_table, locked_table


def test_every_message_round_trips_and_has_its_documented_size() -> None:
    table = dealt_table(3, 36)
    t = table.transcript
    for seat, body in table.bodies:
        msg = decode(body, seat, 36)
        assert msg.to_bytes() == body and msg.seat == seat
    shuffle = t.shuffles[0].to_bytes()
    assert shuffle[0] == 1 and len(shuffle) == 1 + 33 * 37
    lock = t.locks[0].to_bytes()
    assert lock[0] == 2 and len(lock) == 1 + 130 * 36
    audit = dp.make_audit(t, table.secrets[1]).to_bytes()
    assert audit[0] == 4 and len(audit) == 1 + 32 + 1 + 33 * audit[33]


def test_proofs_travel_in_the_shuffle_message() -> None:
    table = locked_table(2, 24, proofs=True)
    body = table.bodies[0][1]
    assert len(body) == 1 + 33 * 25 + 130 * 24 + 160
    assert decode(body, 0, 24) == table.transcript.shuffles[0]
    with pytest.raises(PeerFault) as err:
        dp.apply(dp.DeckTranscript.start(table.transcript.params), decode(body[:-1], 0, 24))
    assert (err.value.reason, err.value.seat) == ("bad-shuffle-proof", 0)


def test_a_deck_without_proofs_refuses_a_proof_field() -> None:
    table = locked_table(2, 24)
    body = table.bodies[0][1] + b"\x00"
    with pytest.raises(PeerFault) as err:
        dp.apply(dp.DeckTranscript.start(table.transcript.params), decode(body, 0, 24))
    assert (err.value.reason, err.value.seat) == ("bad-encoding", 0)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\x00",
        b"\x05",
        b"\x01" + bytes(33),
        b"\x02" + bytes(130 * 24 - 1),
        b"\x03",
        b"\x03\x00",
        b"\x03\x01\x18" + scalar_to_bytes(1),  # position 24 in a 24-card deck
        b"\x03\x02\x01" + scalar_to_bytes(1) + b"\x01" + scalar_to_bytes(1),
        b"\x03\x01\x01" + scalar_to_bytes(N),
        b"\x04" + scalar_to_bytes(0) + b"\x00",
        b"\x04" + scalar_to_bytes(5) + b"\x01",
    ],
)
def test_malformed_bodies_are_faults_of_their_author(body: bytes) -> None:
    with pytest.raises(PeerFault) as err:
        decode(body, 2, 24)
    assert err.value.seat == 2


@given(st.binary(max_size=300), st.sampled_from([24, 36, 52]))
def test_decoding_random_bytes_only_ever_raises_peer_faults(data: bytes, size: int) -> None:
    try:
        msg = decode(data, 1, size)
    except PeerFault as exc:
        assert exc.seat == 1
    else:
        assert msg.to_bytes() == data  # anything accepted has exactly this encoding


@given(st.lists(st.tuples(st.integers(0, 51), st.integers(1, N - 1)), min_size=1, max_size=8, unique_by=lambda e: e[0]))
def test_reveal_and_audit_bodies_round_trip(entries: list[tuple[int, int]]) -> None:
    keys = tuple(sorted(entries))
    reveal = RevealMsg(3, keys)
    assert decode(reveal.to_bytes(), 3, 52) == reveal
    audit = AuditMsg(3, 12345, keys)
    assert decode(audit.to_bytes(), 3, 52) == audit


def test_secrets_round_trip_and_bind_their_deck() -> None:
    table = locked_table(2, 24)
    sec = table.secrets[1]
    data = sec.to_bytes()
    assert SeatSecrets.from_bytes(data) == sec
    assert len(data) == 25 + 32 + 2 + 32 + 24 + 24 * 32
    other_game = dp.DeckTranscript.start(dp.DeckParams(bytes(32), 24, 2))
    seat0 = table.secrets[0]
    with pytest.raises(DeckUsageError) as err:
        dp.make_shuffle(other_game, seat0, SeededRng(1))
    assert err.value.reason == "bad-secrets"
    assert dp.make_shuffle(dp.DeckTranscript.start(table.transcript.params), seat0, SeededRng(1)).seat == 0


@given(st.binary(max_size=200), st.integers(0, 900), st.integers(0, 255))
def test_corrupt_secrets_are_refused_not_crashed(noise: bytes, at: int, flip: int) -> None:
    data = bytearray(locked_table(2, 24).secrets[0].to_bytes())
    for variant in (bytes(noise), bytes(data[: at % len(data)])):
        with pytest.raises(DeckUsageError):
            SeatSecrets.from_bytes(variant)
    data[at % len(data)] ^= flip
    try:
        SeatSecrets.from_bytes(bytes(data))
    except DeckUsageError as exc:
        assert exc.reason == "bad-secrets"


@settings(max_examples=25)
@given(st.data())
def test_a_flipped_byte_in_any_message_is_rejected_and_blamed_on_its_author(data: st.DataObject) -> None:
    table = dealt_table(2, 24, proofs=True)
    index = data.draw(st.integers(0, len(table.bodies) - 1))
    seat, body = table.bodies[index]
    at = data.draw(st.integers(0, len(body) - 1))
    flip = data.draw(st.integers(1, 255))
    bad = body[:at] + bytes((body[at] ^ flip,)) + body[at + 1:]
    t = dp.replay(table.transcript.params, table.bodies[:index])
    with pytest.raises(PeerFault) as err:
        dp.receive(t, seat, bad)
    assert err.value.seat == seat


def test_secrets_file_is_private_and_round_trips(tmp_path: Path) -> None:
    sec = locked_table(2, 24).secrets[1]
    path = tmp_path / "profile" / "deck.secrets"
    save_secrets(sec, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_secrets(path) == sec
    path.write_bytes(path.read_bytes()[:-1])
    with pytest.raises(DeckUsageError):
        load_secrets(path)
    with pytest.raises(DeckUsageError):
        load_secrets(tmp_path / "missing")

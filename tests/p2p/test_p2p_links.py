"""The libp2p invite link (SPEC.md 9.14): the host's peer id and multiaddrs; the old forms keep working."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.crypto.identity import Identity, fingerprint
from p2pdurak.errors import LocalError
from p2pdurak.net.links import (
    Invite,
    InviteError,
    format_p2p_link,
    key_of_peer_id,
    parse_invite,
    peer_id_of_key,
)
from p2pdurak.randomness import SeededRng

KEY = Identity.generate(SeededRng(b"p2p-links")).public
FP = fingerprint(KEY)
PEER = peer_id_of_key(KEY)
GAME = bytes.fromhex("00112233445566778899aabbccddeeff")
RELAY = peer_id_of_key(Identity.generate(SeededRng(b"relay")).public)
ADDRS = ("/ip4/203.0.113.7/tcp/4001", f"/ip4/198.51.100.1/tcp/4002/p2p/{RELAY}/p2p-circuit")


def test_p2p_link_round_trip_and_exact_text() -> None:
    link = format_p2p_link(PEER, ADDRS, GAME, FP)
    assert link == (f"durak+p2p://{PEER}/00112233445566778899aabbccddeeff?addr={ADDRS[0]}&addr={ADDRS[1]}#{FP}")
    invite = parse_invite(link)
    assert invite == Invite("", 0, FP, GAME, peer_id=PEER, multiaddrs=ADDRS)
    assert invite.is_p2p and invite.link() == link
    assert invite.accepts(FP, GAME)
    with pytest.raises(LocalError, match="no short form"):
        invite.short()


def test_old_links_still_parse_as_tcp() -> None:
    invite = parse_invite(f"durak://192.168.1.20:4711/00112233445566778899aabbccddeeff#{FP}")
    assert not invite.is_p2p and invite.port == 4711 and invite.multiaddrs == ()


def test_a_known_peer_id() -> None:
    """The peer id of the Ed25519 key with seed 0x02 * 32, as py-libp2p computed it."""
    key = Identity.from_seed(b"\x02" * 32).public
    assert peer_id_of_key(key) == "12D3KooWJWoaqZhDaoEFshF7Rh1bpY9ohihFhzcW6d69Lr2NASuq"


@given(st.binary(min_size=32, max_size=32))
def test_peer_id_round_trip(key: bytes) -> None:
    assert key_of_peer_id(peer_id_of_key(key)) == key


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (f"durak+p2p://{PEER}/00112233445566778899aabbccddeeff#{FP}", "expected durak"),  # no addresses
        (f"durak+p2p://{PEER}/00112233445566778899aabbccddeeff?addr=ip4/1.2.3.4#{FP}", "not a multiaddr"),
        (f"durak+p2p://{PEER}/00112233445566778899aabbccddeeff?addr=/ip4/1.2.3.4/tcp/1/p2p/{PEER}#{FP}",
         "not a multiaddr"),  # the host's own /p2p/ part is added by the dialer, never carried
        (f"durak+p2p://{PEER}/00112233445566778899aabbccddeeff?host=/ip4/1.2.3.4/tcp/1#{FP}", "expected addr="),
        (f"durak+p2p://{PEER}/0011?addr=/ip4/1.2.3.4/tcp/1#{FP}", "game id"),
        (f"durak+p2p://{RELAY}/00112233445566778899aabbccddeeff?addr=/ip4/1.2.3.4/tcp/1#{FP}", "different keys"),
        (f"durak+p2p://QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N/00112233445566778899aabbccddeeff"
         f"?addr=/ip4/1.2.3.4/tcp/1#{FP}", "not the peer id of an Ed25519 key"),
        (f"durak+p2p://12D3KooW0OIl/00112233445566778899aabbccddeeff?addr=/ip4/1.2.3.4/tcp/1#{FP}", "base58"),
        (f"durak+p2p://{PEER}/00112233445566778899aabbccddeeff?" + "&".join(["addr=/ip4/1.2.3.4/tcp/1"] * 9)
         + f"#{FP}", "1..8"),
    ],
)
def test_bad_p2p_links_are_refused_with_a_reason(text: str, match: str) -> None:
    with pytest.raises(InviteError, match=match):
        parse_invite(text)

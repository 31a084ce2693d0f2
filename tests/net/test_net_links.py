"""Invite links, the short spoken form, and the table code."""

from __future__ import annotations

import base64
import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.crypto.identity import Identity, fingerprint
from p2pdurak.errors import LocalError
from p2pdurak.net.links import Invite, InviteError, format_link, format_short, parse_game_id, parse_invite, table_code
from p2pdurak.randomness import SeededRng

KEY = Identity.generate(SeededRng(b"links")).public
FP = fingerprint(KEY)
GAME = bytes.fromhex("00112233445566778899aabbccddeeff")


def test_link_round_trip_and_exact_text() -> None:
    link = format_link("192.168.1.20", 4711, GAME, FP)
    assert link == f"durak://192.168.1.20:4711/00112233445566778899aabbccddeeff#{FP}"
    invite = parse_invite(link)
    assert invite == Invite("192.168.1.20", 4711, FP, GAME)
    assert invite.link() == link
    assert invite.accepts(FP, GAME)
    assert not invite.accepts(FP, bytes(16))
    assert not invite.accepts(fingerprint(bytes(32)), GAME)


def test_ipv6_hostnames_and_case() -> None:
    assert parse_invite(f"durak://[::1]:80/{GAME.hex()}#{FP}").host == "::1"
    assert format_link("::1", 80, GAME, FP).startswith("durak://[::1]:80/")
    upper = parse_invite(f"DURAK://Table.Local:5000/{GAME.hex().upper()}#{FP.upper()}")
    assert (upper.host, upper.game_id, upper.fingerprint) == ("table.local", GAME, FP)


def test_game_id_in_base32() -> None:
    text = base64.b32encode(GAME).decode().rstrip("=").lower()
    assert len(text) == 26
    assert parse_game_id(text) == GAME
    assert parse_invite(f"durak://h:1/{text}#{FP}").game_id == GAME


def test_short_form() -> None:
    short = format_short("10.0.0.5", 4711, FP)
    assert short == f"10.0.0.5:4711 {FP[0:4]}-{FP[4:8]}-{FP[8:12]}"
    invite = parse_invite(short)
    assert invite.is_short and invite.game_id is None
    assert invite.accepts(FP, GAME) and invite.accepts(FP, bytes(16))
    assert not invite.accepts(fingerprint(bytes(32)), GAME)
    assert parse_invite(f"10.0.0.5:4711 {FP[:12].upper()}") == invite
    assert Invite("10.0.0.5", 4711, FP, GAME).short() == short
    with pytest.raises(LocalError):
        invite.link()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "http://h:1/x#y",
        f"durak://h/{GAME.hex()}#{FP}",  # no port
        f"durak://h:0/{GAME.hex()}#{FP}",
        f"durak://h:65536/{GAME.hex()}#{FP}",
        f"durak://h:12a/{GAME.hex()}#{FP}",
        f"durak://h:1/{GAME.hex()[:-1]}#{FP}",
        f"durak://h:1/{GAME.hex()[:-2]}zz#{FP}",
        f"durak://h:1/{GAME.hex()}#{FP[:-1]}",
        f"durak://h:1/{GAME.hex()}#{FP[:-1]}1",  # 1 is not base32
        f"durak://h:1/{GAME.hex()}",
        f"durak://::1:80/{GAME.hex()}#{FP}",  # IPv6 without brackets
        f"durak://bad_host:1/{GAME.hex()}#{FP}",
        "10.0.0.5:4711",
        "10.0.0.5:4711 abcd-efgh",
        "10.0.0.5 abcd-efgh-ijkl",
    ],
)
def test_bad_invites_are_clear_local_errors(text: str) -> None:
    with pytest.raises(InviteError) as info:
        parse_invite(text)
    assert info.value.message
    assert info.value.reason == "bad-invite"
    assert isinstance(info.value, LocalError)


@given(st.text(max_size=120))
def test_parse_never_crashes(text: str) -> None:
    try:
        invite = parse_invite(text)
    except InviteError:
        return
    assert parse_invite(invite.short()).fingerprint == invite.fingerprint[:12]


def test_table_code() -> None:
    code = table_code(bytes(32))
    digest = hashlib.sha256(b"p2pdurak/v1/table-code\x00" + bytes(32)).digest()
    spelled = base64.b32encode(digest).decode().lower()  # SPEC.md R-NET-23: the first 12 characters, 4-4-4
    assert code == f"{spelled[0:4]}-{spelled[4:8]}-{spelled[8:12]}"
    assert all(c in "abcdefghijklmnopqrstuvwxyz234567-" for c in code)
    assert code == table_code(bytes(32))
    assert code != table_code(bytes(31) + b"\x01")
    with pytest.raises(LocalError):
        table_code(b"short")

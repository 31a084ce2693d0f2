"""The announcement's TXT record (SPEC.md 9.13): what we write reads back; whatever arrives from the network is
either a checked TableAd or an AdError with a reason (never another exception); the pick at `join`'s prompt."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.crypto.identity import fingerprint
from p2pdurak.errors import LocalError
from p2pdurak.net.links import format_p2p_link, peer_id_of_key
from p2pdurak.net.mdns import FoundTable
from p2pdurak.net.nearby import (
    NO_MULTICAST_ENV,
    AdError,
    TableAd,
    check_announcer,
    options_text,
    parse_txt,
    rules_options,
)
from p2pdurak.rules import Options
from p2pdurak.ui.nearby import Finder, Read, Say, ask_link_at_prompt, describe

LINK = "durak://192.168.1.20:4711/" + "0f" * 16 + "#" + "k3xq7bmape2d" * 2
AD = TableAd("Anya", 1, 3, False, "36 transfer", LINK)
_KEY = bytes(range(32))


def _p2p_link(*multiaddrs: str) -> str:
    return format_p2p_link(peer_id_of_key(_KEY), multiaddrs, b"\x0f" * 16, fingerprint(_KEY))


P2P_LINK = _p2p_link("/ip4/192.168.1.20/tcp/4711")
P2P_AD = TableAd("Anya", 1, 2, False, "24", P2P_LINK)


def test_lan_ad_round_trip() -> None:
    assert parse_txt(AD.to_txt()) == AD
    pairs = Options(deck=52, players=6, cheating=True, teams="pairs")
    started = TableAd("Вера ♠", 3, 6, True, options_text(pairs, shuffle_proofs=False), LINK)
    assert parse_txt(started.to_txt()) == started
    assert started.free == 0 and AD.free == 2
    assert started.options == "52 cheating no-proofs teams-pairs"
    transfer = Options(deck=24, transfer=True, show_trump=True, first_bout_five=True)
    assert options_text(transfer) == "24 transfer show-trump five"


@pytest.mark.parametrize(("field", "value", "reason"), [
    (b"v", b"2", "other-version"),
    (b"v", b"x", "bad-number"),
    (b"n", b"", "bad-name"),
    (b"n", b" Anya", "bad-name"),
    (b"n", "Anya\u202eevil".encode(), "bad-name"),  # a bidi override would reorder the line on screen
    (b"n", b"An\x1b[2Jya", "bad-name"),
    (b"n", "A\u00a0B".encode(), "bad-name"),
    (b"n", b"A" * 33, "bad-name"),
    (b"n", b"A" * 97, "field-too-long"),
    (b"n", b"\xc3", "not-utf8"),
    (b"t", b"0", "bad-seats"),
    (b"t", b"4", "bad-seats"),
    (b"s", b"7", "bad-seats"),
    (b"s", b"100", "field-too-long"),
    (b"t", b"+1", "bad-number"),
    (b"p", b"2", "bad-phase"),
    (b"o", b"37", "bad-options"),
    (b"o", b"36 Transfer", "bad-options"),
    (b"o", b"36  transfer", "bad-options"),
    (b"o", b"36 a b c d e f g h", "bad-options"),
    (b"l", b"durak://192.168.1.20:4711 k3xq-7bma-pe2d", "bad-link"),
    (b"l", b"192.168.1.20:4711 k3xq-7bma-pe2d", "bad-link"),
    (b"l", b"http://example.com/", "bad-link"),
    (b"l", P2P_LINK.replace("#", "#b").encode(), "bad-link"),  # a peer id of another key than the fingerprint
    (b"l", _p2p_link("/ip4/192.168.1.20/tcp/4711", "/ip4/192.168.1.20/tcp/4712",
                     "/ip4/192.168.1.20/tcp/4713").encode(), "field-too-long"),  # room for about one address
    (b"l", None, "missing-field"),
])
def test_lan_ad_refused(field: bytes, value: bytes | None, reason: str) -> None:
    props: dict[bytes, bytes | None] = {**AD.to_txt(), field: value}
    with pytest.raises(AdError) as info:
        parse_txt(props)
    assert info.value.reason == reason


def test_lan_ad_missing_and_extra_fields() -> None:
    for key in AD.to_txt():
        props = {k: v for k, v in AD.to_txt().items() if k != key}
        with pytest.raises(AdError, match="missing-field"):
            parse_txt(props)
    extra: dict[bytes, bytes | None] = {**AD.to_txt(), b"x": b"future"}
    assert parse_txt(extra) == AD  # a field we do not know is ignored (a later version may add some)
    flood: dict[bytes, bytes | None] = {**AD.to_txt(), **{b"x%d" % i: b"" for i in range(10)}}
    with pytest.raises(AdError, match="too-many-fields"):
        parse_txt(flood)


@given(st.dictionaries(st.binary(max_size=4), st.none() | st.binary(max_size=120), max_size=20),
       st.dictionaries(st.sampled_from(list(AD.to_txt())), st.none() | st.binary(max_size=80)))
def test_lan_ad_anything_from_the_network_is_checked(noise: dict[bytes, bytes | None],
                                                      mutation: dict[bytes, bytes | None]) -> None:
    for props in (noise, {**AD.to_txt(), **mutation}):
        try:
            ad = parse_txt(props)
        except AdError:
            continue
        assert parse_txt(ad.to_txt()) == ad  # an accepted announcement is one we would have written


LAN = (ipaddress.IPv4Network("192.168.1.0/24"), ipaddress.IPv4Network("127.0.0.0/8"))


def _ad_at(host: str, port: int = 4711) -> TableAd:
    return TableAd("Anya", 1, 3, False, "36", f"durak://{host}:{port}/" + "0f" * 16 + "#" + "k3xq7bmape2d" * 2)


@pytest.mark.parametrize(("link_host", "a_records", "port", "reason"), [
    ("192.168.1.30", ["192.168.1.20"], 4711, "not-the-announcer"),  # the link points at a third machine
    ("192.168.1.20", ["192.168.1.20"], 4712, "not-the-announcer"),  # or at another port than the SRV record's
    ("127.0.0.1", ["127.0.0.1"], 4711, "bad-address"),  # the joiner's own ports
    ("127.0.0.1", ["192.168.1.20"], 4711, "bad-address"),
    ("0.0.0.0", ["0.0.0.0"], 4711, "bad-address"),
    ("224.0.0.251", ["224.0.0.251"], 4711, "bad-address"),
    ("255.255.255.255", ["255.255.255.255"], 4711, "bad-address"),
    ("198.51.100.7", ["198.51.100.7"], 4711, "not-on-this-network"),  # anywhere on the Internet
    ("anya.example", ["192.168.1.20"], 4711, "bad-address"),
    ("fe80::1", ["192.168.1.20"], 4711, "bad-address"),
])
def test_lan_ad_link_must_lead_to_the_announcer(link_host: str, a_records: list[str], port: int,
                                                 reason: str) -> None:
    ad = _ad_at(f"[{link_host}]" if ":" in link_host else link_host)
    with pytest.raises(AdError) as info:
        check_announcer(ad, a_records, port, LAN)
    assert info.value.reason == reason


def test_lan_ad_link_at_the_announcer_is_listed() -> None:
    ad = _ad_at("192.168.1.20")
    assert check_announcer(ad, ["192.168.1.9", "192.168.1.20"], 4711, LAN) is ad


def test_lan_p2p_ad_round_trip_and_listed() -> None:
    """A libp2p table is announced with its node's direct address on the LAN (158 bytes of link: within `l`'s
    200 with one address) and listed when that address is the announcer's."""
    assert len(P2P_LINK) <= 160
    assert parse_txt(P2P_AD.to_txt()) == P2P_AD
    assert check_announcer(P2P_AD, ["192.168.1.20"], 4711, LAN) is P2P_AD
    assert describe(P2P_AD) == "Anya at 192.168.1.20:4711 (libp2p): 1 of 2 seated, 1 free; 24"
    assert P2P_AD.address == "192.168.1.20:4711"


@pytest.mark.parametrize(("multiaddrs", "reason"), [
    # a relay circuit leads to the relay, a third machine (and would have the joiner reserve a slot there)
    (("/ip4/192.168.1.20/tcp/4711/p2p/" + peer_id_of_key(bytes(32)) + "/p2p-circuit",), "bad-address"),
    (("/ip4/192.168.1.20/tcp/4711", "/ip4/192.168.1.30/tcp/4711"), "not-the-announcer"),  # every one is checked
    (("/ip4/192.168.1.30/tcp/4711",), "not-the-announcer"),  # a third machine
    (("/ip4/192.168.1.20/tcp/4712",), "not-the-announcer"),  # another port than the SRV record's
    (("/ip4/127.0.0.1/tcp/4711",), "bad-address"),  # the joiner's own ports
    (("/ip4/255.255.255.255/tcp/4711",), "bad-address"),
    (("/ip4/198.51.100.7/tcp/4711",), "not-on-this-network"),
    (("/dns4/anya.example/tcp/4711",), "bad-address"),  # a name says nothing checkable about where it leads
    (("/ip6/fe80::1/tcp/4711",), "bad-address"),
    (("/ip4/192.168.1.20/udp/4711/quic-v1",), "bad-address"),
    (("/ip4/192.168.1.20/tcp/4711/ws",), "bad-address"),
    (("/ip4/192.168.1.020/tcp/4711",), "bad-address"),  # not the address's one spelling
    (("/ip4/192.168.1.20/tcp/04711",), "bad-address"),
])
def test_lan_p2p_ad_must_lead_to_the_announcer(multiaddrs: tuple[str, ...], reason: str) -> None:
    ad = TableAd("Anya", 1, 2, False, "24", _p2p_link(*multiaddrs))
    with pytest.raises(AdError) as info:
        check_announcer(ad, ["192.168.1.20", "198.51.100.7"], 4711, LAN)
    assert info.value.reason == reason


def test_lan_pick_a_p2p_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NO_MULTICAST_ENV, raising=False)
    _, find = _finder((AD, P2P_AD))
    said: list[str] = []
    assert ask_link_at_prompt(_reader("2"), said.append, find) == P2P_LINK  # joined as if pasted: over libp2p
    assert "2. " + describe(P2P_AD) in said


def test_lan_p2p_table_on_the_join_page() -> None:
    from p2pdurak.web.lan import nearby_tables
    from p2pdurak.web.nearby import nearby_json, place_rows

    rows = place_rows((), nearby_tables([FoundTable("t0", P2P_AD)]), 0.0)
    (row,) = nearby_json(rows, 5.0)
    assert row["link"] == P2P_LINK and row["address"] == "192.168.1.20:4711" and row["ready"]


def _finder(*rounds: tuple[TableAd, ...]) -> tuple[list[float], Finder]:
    calls: list[float] = []

    def find(seconds: float, say: Say) -> tuple[FoundTable, ...]:
        calls.append(seconds)
        ads = rounds[min(len(calls), len(rounds)) - 1]
        return tuple(FoundTable(f"t{i}", ad) for i, ad in enumerate(ads))

    return calls, find


def _reader(*lines: str) -> Read:
    queue = list(lines)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


def test_lan_pick_by_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NO_MULTICAST_ENV, raising=False)
    full = TableAd("Boris", 2, 2, False, "36", LINK.replace("4711", "4712"))
    playing = TableAd("Olga", 2, 3, True, "36", LINK.replace("4711", "4713"))
    said: list[str] = []
    calls, find = _finder((), (full, playing, AD))
    link = ask_link_at_prompt(_reader("", "7", "1", "2", "abc", "3"), said.append, find)
    assert link == AD.link and len(calls) == 2  # only Enter looks again
    text = "\n".join(said)
    assert "No table found on this network." in text
    assert "3. " + describe(AD) in said
    assert describe(AD) == "Anya at 192.168.1.20:4711: 1 of 3 seated, 2 free; 36 transfer"
    assert "2. Olga at 192.168.1.20:4713: playing; 36" in said
    assert "There is no table 7." in text and "Boris's table has no free seat." in text
    assert "Olga's table has no free seat." in text and "expected a durak:// link" in text
    assert "Compare the table code aloud" in said[-1]


def test_lan_pick_pasted_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NO_MULTICAST_ENV, raising=False)
    _, find = _finder((AD,))
    pasted = ask_link_at_prompt(_reader(" 10.0.0.5:4711 k3xq-7bma-pe2d "), print, find)
    assert pasted == "10.0.0.5:4711 k3xq-7bma-pe2d"
    with pytest.raises(LocalError, match="no invite link given"):
        ask_link_at_prompt(_reader(), print, find)


def test_lan_pick_without_multicast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_MULTICAST_ENV, "1")
    calls, find = _finder((AD,))
    said: list[str] = []
    assert ask_link_at_prompt(_reader("1", LINK), said.append, find) == LINK  # "1" is no link without a list
    assert calls == []  # never browsed
    assert said[0] == f"Looking for tables on this network is off ({NO_MULTICAST_ENV} is set)."
    assert said[1].startswith("That is not an invite link.")


def test_lan_options_short_form() -> None:
    assert rules_options("36 transfer show-trump five cheating no-proofs", 3) == Options(
        deck=36, players=3, transfer=True, show_trump=True, first_bout_five=True, cheating=True)
    assert rules_options("52 teams-2v2", 4) == Options(deck=52, players=4, teams="2v2")
    assert rules_options("52 teams-2v2", 3) is None  # not a game: listed without options
    assert rules_options("36 later-option", 2) is None
    assert rules_options("36 show-trump", 2) is None


def _no_mdns(monkeypatch: pytest.MonkeyPatch) -> None:
    """zeroconf cannot open its sockets here (as on a machine with no usable interface): nothing is sent."""
    import p2pdurak.net.mdns as mdns

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(99, "Cannot assign requested address")

    monkeypatch.setattr(mdns, "Zeroconf", refuse)
    monkeypatch.delenv(NO_MULTICAST_ENV, raising=False)


def test_lan_no_mdns_at_the_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_mdns(monkeypatch)
    said: list[str] = []
    assert ask_link_at_prompt(_reader(LINK), said.append, seconds=0.01) == LINK
    assert "Cannot look for tables on this network: [Errno 99] Cannot assign requested address" in said
    assert "No table found on this network." in said


async def test_lan_no_mdns_on_the_page_or_at_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    from p2pdurak.net.mdns import Announcer, LanUnavailable
    from p2pdurak.web.lan import lan_finder

    _no_mdns(monkeypatch)
    lists: list[object] = []
    await lan_finder(lists.append)  # returns (the page keeps its empty list) instead of failing the join page
    assert lists == []
    with pytest.raises(LanUnavailable, match="lan-unavailable"):
        await Announcer(AD, bytes(16), "192.168.1.20", 4711).start()

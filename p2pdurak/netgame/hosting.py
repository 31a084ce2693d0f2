"""The `p2pdurak host` flow: lobby (invite link, short form, joiners, Enter to start), the game, the transcript."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import secrets
import socket
from pathlib import Path
from typing import Protocol

import trio

from p2pdurak.crypto.identity import load_or_create_identity, profile_dir
from p2pdurak.errors import DurakError, LocalError
from p2pdurak.net.api import Ending, NetEvent
from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ALREADY_SEATED, ConnectionClosed, JoinRefused, NetFault
from p2pdurak.net.links import direct_tcp_address, format_short
from p2pdurak.net.mdns import Announcer, LanUnavailable
from p2pdurak.net.nearby import AdError, TableAd, multicast_allowed, options_text, parse_txt
from p2pdurak.net.portmap import PortMapper
from p2pdurak.net.transport import P2PTransport
from p2pdurak.netgame.cli_support import options_from_args, result_line, write_transcript
from p2pdurak.netgame.frontend import CONFIRM_START, INVITE, FrontEnd, PlayerFactory, Progress
from p2pdurak.netgame.join import ended_early, user_error
from p2pdurak.netgame.links import host_links
from p2pdurak.netgame.seat import PrintingListener, SeatRunner
from p2pdurak.netgame.session import NetSession, play_seat
from p2pdurak.netgame.store import latest_game_file, load_seat
from p2pdurak.netgame.table import HostSide, TableSpec, open_host, resume_host
from p2pdurak.peer.messages import GameOptions
from p2pdurak.randomness import SeededRng, system_rng
from p2pdurak.wire import encode


def lan_address() -> str:
    """The address other machines on the local network most likely reach us at (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))
            address: str = s.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address


def _lan_ipv4(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False  # a DNS name given with --advertise
    return ip.version == 4 and not ip.is_loopback and not ip.is_unspecified


log = logging.getLogger("p2pdurak.host")
# the host's words for turning someone away (NetEvent refused; already-seated has its own line)
HOST_REFUSALS = {
    "table-full": "turned a player away: the table is full",
    "not-in-roster": "turned away someone who is not at this table",
}


class WebDoor(Protocol):
    """The host's web port (SPEC.md 9.15), served by the web layer: the browser seat's page and the WebSocket whose
    connections `listener` hands to the HostServer beside its TCP listeners."""

    @property
    def listener(self) -> trio.abc.Listener[trio.abc.Stream]: ...

    @property
    def digest(self) -> str: ...  # the page bundle's SHA-256 (hex), shown in the lobby ("": no page)

    async def serve(self, bind: str, port: int, *, task_status: trio.TaskStatus[int] = ...) -> None: ...


def web_link(address: str, port: int, invite_link: str) -> str:
    """The link a browser opens (R-NET-103): the host's web port, the invite in the fragment."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/#{invite_link}"


class HostCommand:
    """`p2pdurak host`: the command layer gives it the person's front end, the computer players and (unless
    --no-web) the web port that seats browsers."""

    def __init__(self, args: argparse.Namespace, front: FrontEnd, players: PlayerFactory,
                 web: WebDoor | None = None) -> None:
        self.args = args
        self.front = front
        self.players = players
        self.web = web
        self.web_port = 0  # the web port once it is open (0: none)
        self.quiet: bool = args.quiet
        self.session: NetSession | None = None
        self.node: P2PTransport | None = None  # the libp2p node under `--transport libp2p`
        self.side: HostSide | None = None
        self.links: dict[int, str] = {}  # seat -> how it reached the host as it last came up in the game (libp2p)
        self.profile = profile_dir(args.profile)
        self.identity = load_or_create_identity(self.profile / "identity.key")
        # a resumed game keeps the transport, listen addresses and relays it was hosted on: its links lead there
        self.saved = load_seat(latest_game_file(self.profile, "host")) if args.resume else None
        saved_meta = self.saved.meta if self.saved is not None else {}
        saved_transport = saved_meta.get("transport") or ("libp2p" if "p2p_listen" in saved_meta else None)
        self.transport = str(saved_transport or args.transport)
        saved_relays = saved_meta.get("relays")
        self.relays = [str(r) for r in (args.relay or (saved_relays if isinstance(saved_relays, list) else []))]
        if self.transport == "libp2p":
            from p2pdurak.net import p2p

            p2p.require()  # a clear message, before anything runs, when libp2p is not installed
        options_from_args(args, args.seats)  # refuse a bad combination before anyone joins
        self.spec = TableSpec(
            options_from_args(args, args.seats), level=args.bot or "normal", seed=args.seed,
            shuffle_proofs=not args.no_shuffle_proofs, move_timeout=args.move_timeout,
            config=NetConfig(), durable=not args.no_fsync, players=players,
        )
        if not args.bot and not front.can_play():
            raise LocalError("no-ui", "the terminal interface is not installed; pass --bot LEVEL")

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, flush=True)

    def observe(self, event: NetEvent) -> None:
        self._relink(event)
        if self.session is not None:
            self.session.observe(event)
            if self.session.runner.peer is not None:
                return  # the game screen is up: it shows what matters
        if event.kind == "refused" and event.reason == ALREADY_SEATED and self.side is not None:
            name = self.side.server.seat_names().get(event.seat, "") if event.seat is not None else ""
            self.say(f"[host] refused a second connection with the key of {name or 'a seated player'}: two players "
                     "on one profile? (each needs their own: --profile DIR)")
            return
        line = self._event_words(event)
        if line:
            self.say(f"[host] {line}")
            if event.kind == "started" and event.reason == "session" and self.node is not None and self.side:
                self.links = {seat: path for seat, path in self.side.server.paths().items() if seat}
                self.say("[host] links: " + ", ".join(f"seat {s} {p}" for s, p in sorted(self.links.items())))

    def _event_words(self, event: NetEvent) -> str:
        """The host's screen before the game: what happened, in words (the codes go to the debug log)."""
        log.debug("%s seat=%s %s", event.kind, event.seat, event.reason)
        side = self.side
        if side is None:
            return ""
        server = side.server
        lobby = server.phase == "lobby"
        name = event.reason if event.kind in ("joined", "left") else self._name(event.seat)
        if event.kind == "joined":
            path = ""
            if self.node is not None and event.seat:
                path = f" ({server.paths().get(event.seat, '?')})"  # how it reaches us: relayed, ...
            if lobby and event.seat == 0:
                return ""  # the host's own seat
            if lobby:
                return f"{name} sat down{path}: {len(server.connected)} of {server.seats} seated"
            return f"{name} is connected{path}"
        if event.kind == "left":
            if event.seat == 0 or server.phase == "closed":
                return ""  # the host's own seat, or the end of the game: everyone goes
            return f"{name} left the table" if lobby else f"{name} lost the connection"
        if event.kind == "refused":
            return HOST_REFUSALS.get(event.reason, "")
        if event.kind == "recovered":
            lost = ""
            if event.reason == "1":
                lost = "; the entry this game file had lost was taken back from the seats"
            elif event.reason not in ("", "0"):
                lost = f"; the {event.reason} entries this game file had lost were taken back from the seats"
            return f"every seat has caught up{lost}: the game goes on"
        if event.kind == "started" and event.reason == "signing":
            return "the game begins: every player signs the table (who sits where, and the options)"
        if event.kind == "started":
            return "everyone signed; shuffling"
        if event.kind == "silent":
            return f"{name} did not answer in time"
        if event.kind == "aborted":
            why = f"{name} did not sign in time" if event.reason == "silent-seat" else "a player's signature was wrong"
            return f"the game was called off before the shuffle: {why}"
        return ""  # dropped connections and the like: the debug log only

    def _name(self, seat: int | None) -> str:
        side = self.side
        if side is None or seat is None:
            return "a player"
        roster = side.server.roster
        if 0 <= seat < len(roster):
            return roster[seat].name
        return side.server.seat_names().get(seat, "a player")

    def _relink(self, event: NetEvent) -> None:
        """A seat that came back once the game began (after a hole punch: over the punched connection) is on
        `links` as it came up last, with one line when its path changed."""
        if event.kind != "joined" or not event.seat or not self.links or self.side is None:
            return
        path = self.side.server.paths().get(event.seat)
        if path is not None and self.links.get(event.seat) != path:
            self.links[event.seat] = path
            if self.session is None or self.session.runner.peer is None:  # (else the game screen shows it)
                self.say(f"[host] link: seat {event.seat} {path}")

    def options_for(self, players: int) -> bytes:
        return encode(GameOptions.of(options_from_args(self.args, players), None, self.spec.shuffle_proofs))

    async def open(self) -> HostSide:
        args = self.args
        rng = system_rng if args.seed is None else SeededRng(args.seed)
        player = self.players(args.bot, SeededRng(args.seed + 1) if args.seed is not None else system_rng) \
            if args.bot else None
        runner = SeatRunner(self.identity, self.profile, player=player, rng=rng, durable=self.spec.durable,
                            move_timeout=self.spec.move_timeout,
                            listener=PrintingListener() if player is not None and not self.quiet else None)
        if self.saved is not None:
            side = await resume_host(self.identity, self.saved, runner, self.spec, observer=self.observe)
            if self.node is not None:
                side.listeners.append(self.node.listener())
            return side
        name = args.name or "Host"
        # under libp2p the seats come through the node; the TCP listener serves only the host's own seat
        bind, port = (args.bind, args.port) if self.node is None else ("127.0.0.1", 0)
        runner.meta = {"role": "host", "bind": bind, "name": name, "transport": self.transport}
        side = await open_host(
            self.identity, name, secrets.token_bytes(16), self.spec, self.profile, seats=args.seats,
            bind=bind, port=port, auto_start=True, runner=runner, options_for=self.options_for,
            observer=self.observe,
        )
        runner.meta["port"] = side.port
        if self.node is not None:
            side.listeners.append(self.node.listener())
            runner.meta["port"] = 0  # (the loopback listener of the host's own seat: any port will do again)
            runner.meta["p2p_listen"] = list(self.node.listen_addrs())
            runner.meta["relays"] = self.relays
        return side

    async def main(self) -> tuple[bytes, str, dict[str, object], Path]:
        if self.transport != "libp2p":
            return await self._main()
        from p2pdurak.net.p2p import open_p2p_node

        async with open_p2p_node(self.identity, self._p2p_listen()) as node:
            self.node = node
            node.say = lambda text: self.say(f"[host] punch {text}")
            for relay in self.relays:
                if await node.reserve(relay):
                    self.say(f"reachable through the relay {relay}")
                else:
                    self.say(f"the relay {relay} did not take a reservation: seats must reach this machine directly")
            return await self._main()

    def _p2p_listen(self) -> list[str]:
        """Where the host's libp2p node listens: --bind and --port, or where it listened before a --resume (the
        same port: the seats' links lead there)."""
        if self.saved is not None:
            listen = self.saved.meta.get("p2p_listen")
            if isinstance(listen, list) and listen:
                return [str(a) for a in listen]
        bind = self.args.bind
        return [f"/{'ip6' if ':' in bind else 'ip4'}/{bind}/tcp/{self.args.port}"]

    async def _main(self) -> tuple[bytes, str, dict[str, object], Path]:
        side = self.side = await self.open()
        session = self.session = NetSession(side.runner) if side.runner.player is None else None
        if session is not None:
            side.client.observer = session.observe
            session.links_of = lambda: host_links(side.server)  # the page lists each seat's path to us
        runner = side.runner
        if runner.peer is not None and runner.peer.over:  # resumed after the end: nothing left to serve
            runner.close()
            for listener in side.listeners:
                await listener.aclose()
            ending = Ending("bye", "game-over")
        else:
            ending = await self._serve(side, session)
        if runner.genesis_bytes is None:
            raise ended_early(ending.reason)
        data = runner.transcript()
        game_id = runner.genesis_bytes and side.server.game_id.hex()
        path = write_transcript(data, self.args.out, self.profile / "games" / str(game_id) / "transcript.dlog")
        line, report = result_line(data, require_proofs=not self.args.no_shuffle_proofs)
        if self.node is not None:
            report["links"] = {str(seat): path for seat, path in sorted(self.links.items())}
        return data, line, report, path

    async def _serve(self, side: HostSide, session: NetSession | None) -> Ending:
        endings: list[Ending] = []
        failures: list[Exception] = []
        args = self.args
        if not (args.resume or args.no_lobby_input or args.start_when_full or args.bot):
            side.client.genesis_gate = trio.Event()  # our seat signs when the host starts the game (_confirm_start)

        async def host_seat() -> None:
            try:
                if session is not None:
                    endings.append(await play_seat(side.client, side.runner, session, self.front))
                else:
                    endings.append(await side.client.run())
            except (JoinRefused, NetFault, ConnectionClosed, DurakError) as exc:
                failures.append(exc)
                side.server.finish("host-failed")

        served = trio.Event()

        async def serve() -> None:
            await side.server.serve(side.listeners)
            served.set()

        try:
            async with trio.open_nursery() as nursery:
                await self._open_web(nursery, side)
                nursery.start_soon(serve)
                nursery.start_soon(side.app.arm_when_started)
                nursery.start_soon(host_seat)
                while side.client.seat is None and not failures:
                    await trio.sleep(0.01)  # the host's own seat is seated first: it is seat 0
                address = self._announce(side)
                if address is not None:
                    nursery.start_soon(self._announce_on_lan, side, address)
                    nursery.start_soon(self._map_port, side, address)
                reads = session is not None or (not self.args.resume and not self.args.no_lobby_input)
                if reads:
                    nursery.start_soon(self.front.pump)
                if not self.args.resume and not self.args.no_lobby_input:
                    nursery.start_soon(self._lobby_input, side)
                await side.server.closed.wait()
                while not endings and not failures:
                    await trio.sleep(0.05)
                if not failures:  # a seat that is away may come back for the end within linger_timeout (R-NET-54)
                    with trio.move_on_after(side.server.config.linger_timeout + 1):
                        await served.wait()
                nursery.cancel_scope.cancel()
        finally:
            side.runner.close()
        if failures:
            exc = failures[0]
            if isinstance(exc, DurakError) and not isinstance(exc, (JoinRefused, NetFault, ConnectionClosed)):
                raise exc
            raise user_error(exc) from exc
        return endings[0]

    async def _open_web(self, nursery: trio.Nursery, side: HostSide) -> None:
        """The web port, on --bind (a resumed game: the port it had, so that a browser seat's page finds it again);
        one line and no browser seats if it cannot be opened."""
        if self.web is None:
            return
        saved = self.saved.meta.get("web_port") if self.saved is not None else None
        port = int(str(saved)) if saved is not None else int(self.args.web_port)
        if self.saved is not None and saved is None:
            return  # hosted with no web port: none now either
        try:
            self.web_port = await nursery.start(self.web.serve, self.args.bind, port)
        except OSError as exc:
            self.say(f"no web port for browser seats ({exc.strerror or exc}): choose another with --web-port")
            return
        side.listeners.append(self.web.listener)
        side.runner.meta["web_port"] = self.web_port

    def _announce(self, side: HostSide) -> str | None:
        """Print the invite (and show it on the front end); the address it carries (None: no address to map or
        announce). A resumed host prints no invite, but maps its port and announces again: the UPnP worker removed
        the mapping when the dead host's pipe closed, and the seats outside reconnect through the same one."""
        args = self.args
        address = args.advertise or (args.bind if args.bind not in ("0.0.0.0", "::") else lan_address())
        if args.resume:
            where = f"at {', '.join(self.node.listen_addrs())}" if self.node is not None else f"on port {side.port}"
            if self.web_port:
                where += f" (browser seats: web port {self.web_port})"
            self.say(f"resumed {where}; the seats reconnect by themselves")
            return address
        if self.node is not None:
            invite = side.server.p2p_invite(self.node.addrs(address))
            print(f"invite link: {invite.link()}", flush=True)  # even when quiet: nobody can join without it
            self.front.lobby(Progress(INVITE, text=self._invite_text(address, invite.link(), "")))
        else:
            invite = side.server.invite(address, side.port)
            print(f"invite link: {invite.link()}", flush=True)  # even when quiet: nobody can join without it
            short = format_short(address, side.port, invite.fingerprint)
            print(f"short form:  {short}", flush=True)
            self.front.lobby(Progress(INVITE, text=self._invite_text(address, invite.link(), short)))
        self.say(f"waiting for {args.seats - 1} player(s); press Enter to start with those seated")
        return address

    def _invite_text(self, address: str, link: str, short: str) -> str:
        """The lobby's invite for the front end, one item a line: the link, its short form, and with a web port
        the browser link (the QR code holds it) and the page's SHA-256. Printed here too (even when quiet)."""
        if self.web is None or not self.web_port:
            return f"{link}\n{short}"
        browser = web_link(address, self.web_port, link)
        print(f"browser link: {browser}", flush=True)
        if self.web.digest:
            print(f"browser page SHA-256: {self.web.digest}", flush=True)
        return f"{link}\n{short}\n{browser}\n{self.web.digest}"

    def _table_ad(self, side: HostSide, link: str) -> TableAd:
        args, server = self.args, side.server
        taken = min(max(len(server.connected), 1), args.seats)
        options = options_text(self.spec.options, shuffle_proofs=self.spec.shuffle_proofs)
        name = args.name or "Host"
        return TableAd(name, taken, args.seats, server.phase != "lobby", options, link)

    def _node_port(self, address: str) -> int | None:
        """The TCP port of the libp2p node's direct address at `address` (None: no such address)."""
        assert self.node is not None
        for text in self.node.addrs(address):
            found = direct_tcp_address(text)
            if found is not None and found[0] == address:
                return found[1]
        return None

    def _lan_link(self, side: HostSide, address: str) -> tuple[str, int] | None:
        """The link a joiner on the LAN dials, and the TCP port behind it: the plain TCP link, or a libp2p link
        with the node's direct address only (a relay circuit leads to a third machine: joiners refuse it, R-NET-82).
        None: the libp2p node does not listen on `address`."""
        if self.node is None:
            return side.server.invite(address, side.port).link(), side.port
        port = self._node_port(address)
        if port is None:
            return None
        return side.server.p2p_invite([f"/ip4/{address}/tcp/{port}"]).link(), port

    async def _announce_on_lan(self, side: HostSide, address: str) -> None:
        """The table on the LAN by mDNS (unless --no-announce), its seats kept current until the table closes."""
        if self.args.no_announce or not multicast_allowed():
            return
        if not _lan_ipv4(address):
            self.say(f"not announced on the local network: {address} is not a LAN address (IPv4)")
            return
        lan = self._lan_link(side, address)
        if lan is None:
            self.say(f"not announced on the local network: the libp2p node does not listen on {address}")
            return
        link, port = lan
        try:
            ad = parse_txt(self._table_ad(side, link).to_txt())  # what a joiner would refuse, we do not announce
        except AdError as exc:  # our own name breaks a rule of the announcement: say so, host unlisted
            self.say(f"not announced on the local network: {exc.message}")
            return
        announcer = Announcer(ad, side.server.game_id, address, port)
        try:
            await announcer.start()
            self.say("announced on the local network (p2pdurak join with no link lists it)")
            while True:
                await trio.sleep(0.25)
                await announcer.update(self._table_ad(side, link))
        except LanUnavailable as exc:
            self.say(f"not announced on the local network: {exc.message}")
        finally:
            with trio.move_on_after(3, shield=True):
                await announcer.aclose()

    async def _map_port(self, side: HostSide, address: str) -> None:
        """UPnP (unless --no-upnp): a second invite, with the router's outside address, for friends elsewhere. Under
        libp2p the node's TCP port is mapped, and the outside address comes first among the link's addresses."""
        if self.args.no_upnp or not multicast_allowed() or not _lan_ipv4(address):
            return
        lan = self._lan_link(side, address)
        if lan is None:
            self.say(f"no UPnP port mapping: the libp2p node does not listen on {address}")
            return
        mapper = PortMapper(lan[1])
        web_mapper: PortMapper | None = None  # the web port's (9.15), once the game's port is mapped
        try:
            attempt = await mapper.open()
            mapping = attempt.mapping
            if mapping is None:
                reach = "cannot reach us" if self.node is None else "reach us only through a relay (--relay)"
                self.say(f"no UPnP port mapping ({attempt.reason}): friends outside this network {reach}")
                return
            if self.node is None:
                outside = side.server.invite(mapping.external_address, mapping.external_port).link()
            else:
                direct = f"/ip4/{mapping.external_address}/tcp/{mapping.external_port}"
                outside = side.server.p2p_invite(list(dict.fromkeys([direct, *self.node.addrs(address)]))).link()
            print(f"invite link from outside this network (UPnP): {outside}", flush=True)
            if mapping.behind_another_nat:
                self.say(f"(the router's outside address {mapping.external_address} is not public: another NAT "
                         "is in front of it)")
            if self.web is not None and self.web_port:
                web_mapper = PortMapper(self.web_port)
                web = (await web_mapper.open()).mapping
                if web is None:
                    self.say("no UPnP port mapping for the web port: browsers outside this network cannot reach us")
                else:
                    browser = web_link(web.external_address, web.external_port, outside)
                    print(f"browser link from outside this network (UPnP): {browser}", flush=True)
            await trio.sleep_forever()
        finally:
            if web_mapper is not None:
                await web_mapper.aclose()
            await mapper.aclose()

    async def _lobby_input(self, side: HostSide) -> None:
        """Enter starts the game with the players seated so far (at least 2). Stops reading once the lobby is
        closed, so that the game screen gets every later line."""
        server = side.server
        async with trio.open_nursery() as nursery:

            async def close_with_lobby() -> None:
                while server.phase == "lobby":
                    await trio.sleep(0.05)
                nursery.cancel_scope.cancel()

            nursery.start_soon(close_with_lobby)
            while server.phase == "lobby":
                line = await self.front.read_line()
                if line is None:
                    break  # no input: start when the table is full
                try:
                    self.options_for(len(server.connected))
                    server.start()
                except DurakError as exc:
                    self.say(f"cannot start yet: {exc.message}")
            nursery.cancel_scope.cancel()
        await self._confirm_start(side)

    async def _confirm_start(self, side: HostSide) -> None:
        """The roster is closed and every screen shows the table code: the game starts (our seat signs) when the
        host says so, once the players have compared it (no more input: at once)."""
        gate = side.client.genesis_gate
        if gate is None:
            return
        while not side.runner.table_code and side.server.phase == "signing":
            await trio.sleep(0.05)
        if side.server.phase == "signing":
            self.front.lobby(Progress(CONFIRM_START, text=side.runner.table_code))
            await self.front.read_line()
        gate.set()

"""A joining seat from the command line: connect with the invite, play (or resume) the game, keep the transcript."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.net.api import Ending, NetEvent, Observer, ignore_event
from p2pdurak.net.client import Client
from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ALREADY_SEATED, ConnectionClosed, JoinRefused, NetFault
from p2pdurak.net.links import parse_invite
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.netgame.store import latest_game_file, load_seat


@dataclass
class SeatOutcome:
    ending: Ending
    runner: SeatRunner


# Why the host turned us away (its Bye or Abort answering our Join), and why the party that answered is not the
# invited host; the codes stay in the debug log (cli.main)
REFUSALS = {
    "table-full": "the host turned us away: the table is full",
    "not-in-roster": "the host turned us away: the game has begun without us",
    "game-over": "the host turned us away: the game is over",
    "silent-seat": "the game was called off before it began: a player did not sign in time",
}
REFUSED_HOW = "(ask the host for a new table if you want to play)"
HOST_FAULTS = {
    "wrong-host-key": "its key is not the one in the link (a mistyped link, or someone else at that address)",
    "wrong-transport-key": "its key is not the one in the link (someone else at that address)",
    "wrong-game": "it now runs another table; ask the host for the new link",
    "bad-hello": "it could not prove the key in the link",
    "bad-version": "it runs another version of p2pdurak",
}


def user_error(exc: Exception) -> LocalError:
    """A transport failure as the one line a person can act on."""
    if isinstance(exc, JoinRefused):
        if exc.reason == ALREADY_SEATED:
            return LocalError(exc.reason, "the host already has a player with this key at the table: is someone on "
                                          "this machine playing with the same profile? A second player needs a "
                                          "profile of their own (--profile DIR)")
        return LocalError(exc.reason, REFUSALS.get(exc.reason, "the host turned us away") + " " + REFUSED_HOW)
    if isinstance(exc, NetFault):
        why = HOST_FAULTS.get(exc.reason, f"it broke the protocol ({exc.message})")
        return LocalError(exc.reason, f"the party at that address is not the host of the invite: {why}")
    if isinstance(exc, ConnectionClosed) and exc.reason == "table-gone":
        return LocalError(exc.reason, "the table is gone: the host stopped before the game began (nothing was "
                          "signed, nobody lost); join again with a new invite from the host")
    if isinstance(exc, ConnectionClosed) and exc.reason == "host-unreachable":
        return LocalError(exc.reason, f"cannot reach the host: {exc.message}. Check that the address is the one the "
                                      "host gave you, that the host's p2pdurak is still running, and that no "
                                      "firewall blocks the connection")
    if isinstance(exc, ConnectionClosed):
        return LocalError(exc.reason, f"cannot reach the host ({exc.message})")
    raise exc


def prepare_join(
    identity: Identity,
    name: str,
    link: str | None,
    profile: Path,
    runner: SeatRunner,
    *,
    resume: bool = False,
    config: NetConfig | None = None,
    observer: Observer = ignore_event,
    mesh: bool = True,
    p2p_listen: Sequence[str] | None = None,
) -> Client:
    """The seat's Client, resumed from the seat's file when `resume` (then `link` may be None: the file has it)."""
    have, has_genesis = 0, False
    if resume:
        game_id = parse_invite(link).game_id if link else None
        saved = load_seat(latest_game_file(profile, "join", game_id))
        link = link or str(saved.meta.get("link") or "")
        name = str(saved.meta.get("name") or name)
        if saved.genesis is not None:
            runner.resume(saved)
            have, has_genesis = len(saved.entries), True
        # (else the file ends before the genesis, cut short by a crash as it was written: the host sends it again)
        runner.meta = dict(saved.meta)
    if not link:
        raise LocalError("bad-invite", "no invite link")
    invite = parse_invite(link)
    runner.meta.update({"role": "join", "link": link, "name": name})
    client = Client(identity, name, invite, runner, config=config, observer=observer, have=have,
                    has_genesis=has_genesis, mesh=mesh, p2p_listen=p2p_listen)
    client.past_lobby = resume  # (a file of the game: we signed its genesis, whether it came back before the crash)
    runner.client = client
    return client


async def run_seat(client: Client, runner: SeatRunner) -> SeatOutcome:
    try:
        ending = await client.run()
    except (JoinRefused, NetFault, ConnectionClosed) as exc:
        raise user_error(exc) from exc
    finally:
        runner.close()
    return SeatOutcome(ending, runner)


EARLY_ENDS = {  # how a session ended before the game began, in words (the codes stay in the debug log)
    "silent-seat": "a player did not sign the table in time",
    "host-failed": "the host's own seat failed",
    "game-over": "the host closed the table",
    "connection-lost": "the connection to the host was lost",
}


def ended_early(reason: str) -> LocalError:
    """The game ended before it started: one line in words."""
    why = EARLY_ENDS.get(reason, "the game was called off")
    return LocalError(reason, f"the game ended before it started: {why}")


UNREACHABLE_WORDS = {
    "connection-refused": "nothing answers there (the connection was refused)",
    "no-answer": "no answer yet",
    "connect-timeout": "no answer",
}


NET_WORDS = {  # (a reconnection's attempts are not news one by one: "dropped" said it)
    "connected": "connected to the host",
    "dropped": "lost the connection to the host; reconnecting",
    "aborted": "the game was called off",
    "silent": "a player did not answer in time",
}


def print_event(event: NetEvent) -> None:
    if event.kind == "punch":
        print(f"[net] punch {event.reason}".rstrip(), flush=True)
        return
    if event.kind in NET_WORDS:
        print(f"[net] {NET_WORDS[event.kind]}", flush=True)
        return
    if event.kind == "unreachable":
        why = UNREACHABLE_WORDS.get(event.reason, "something answered, but not as a p2pdurak table")
        print(f"[net] cannot reach the host yet: {why}. Check that the address is the one the host gave you, that "
              "the host's p2pdurak is still running, and that no firewall blocks the connection; still trying",
              flush=True)
        return


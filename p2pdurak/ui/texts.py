"""Every sentence the client shows, in the installed language: the moves log, refusals, phases and results.

Nothing here decides anything about the game; it only puts into words what the rules view and the peer's events
say. Cards go through `card_text` so that rank letters follow the language (`B♠` in German, `В♠` in Russian).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from p2pdurak import i18n_strings as S
from p2pdurak.cards import rank_of
from p2pdurak.errors import DurakError
from p2pdurak.i18n import _, format_plural
from p2pdurak.i18n_strings import card_text
from p2pdurak.netgame import frontend as sess
from p2pdurak.netgame.frontend import EntryApplied, Progress, SeatInfo
from p2pdurak.peer import ActionApplied, Event, Faulted, GameEnded, Refused, Verdict
from p2pdurak.peer import game as peer_game
from p2pdurak.rules import (
    Action,
    Beat,
    Challenge,
    Declare,
    GameResult,
    Pass,
    Play,
    ShowTrump,
    State,
    Take,
    Transfer,
    ended_at_bout_cap,
)
from p2pdurak.rules.engine import asked_card, open_trumps
from p2pdurak.rules.options import MAX_BOUTS
from p2pdurak.rules.state import DECLARING, PLAYING


class Names:
    """Seat numbers to the names people see; our own seat as "Anna (you)"."""

    def __init__(self, seats: Sequence[SeatInfo], me: int) -> None:
        self.seats = tuple(seats)
        self.me = me

    def __call__(self, seat: int) -> str:
        if not 0 <= seat < len(self.seats):
            return "?"
        name = self.seats[seat].name
        return _(S.PLAYER_NAME_YOU).format(name=name) if seat == self.me else name

    def plain(self, seat: int) -> str:
        return self.seats[seat].name if 0 <= seat < len(self.seats) else "?"

    def label(self, seat: int) -> str:
        """Name with the computer level, for the players list."""
        info = self.seats[seat]
        if info.level is None:
            return self(seat)
        level = {"easy": S.LEVEL_EASY, "normal": S.LEVEL_NORMAL, "hard": S.LEVEL_HARD}.get(info.level)
        return _(S.BOT_WITH_LEVEL).format(name=info.name, level=_(level) if level else info.level)


# ----------------------------------------------------------------------------------------------- the moves log


def action_text(action: Action, before: State, after: State, names: Names) -> str:
    """One move of the log, told with the table as it was when the move was made."""
    who = names(action.seat)
    if isinstance(action, Declare):
        if action.card is None:
            return _(S.LOG_DECLARES_NO_TRUMP).format(player=who, card=card_text(asked_card(before)))
        return _(S.LOG_DECLARES_LOWEST_TRUMP).format(player=who, card=card_text(action.card))
    if isinstance(action, Play):
        message = S.LOG_THROWS_IN if before.attacks else S.LOG_OPENS
        return _(message).format(player=who, card=card_text(action.card))
    if isinstance(action, Beat):
        attack = before.attacks[action.attack_index] if action.attack_index < len(before.attacks) else -1
        return _(S.LOG_BEATS).format(
            player=who, attack=card_text(attack) if attack >= 0 else "?", card=card_text(action.card)
        )
    if isinstance(action, Transfer):
        return _(S.LOG_TRANSFERS).format(player=who, card=card_text(action.card), defender=names(after.defender))
    if isinstance(action, ShowTrump):
        return _(S.LOG_SHOWS_TRUMP).format(player=who, card=card_text(action.card), defender=names(after.defender))
    if isinstance(action, Take):
        return _(S.LOG_TAKES).format(player=who)
    if isinstance(action, Pass):
        return _(S.LOG_DONE if is_bito(action.seat, before) else S.LOG_PASSES).format(player=who)
    if isinstance(action, Challenge):
        return _(S.LOG_CHALLENGES).format(player=who, card=card_text(action.card))
    return repr(action)  # pragma: no cover - every action kind is told above


def verdict_text(verdict: Verdict, names: Names) -> str:
    card = card_text(verdict.card)
    if verdict.caught and verdict.taken_back:
        return _(S.LOG_CAUGHT_TAKEN_BACK).format(player=names(verdict.author), card=card)
    if verdict.caught:
        return _(S.LOG_CAUGHT).format(player=names(verdict.author), card=card)
    return _(S.LOG_HONEST).format(player=names(verdict.challenger), card=card)


def bout_end_lines(before: State, after: State, names: Names, added: int = 0) -> list[str]:
    """What the end of a bout did: beaten off or picked up, who went out, who attacks first. `added`: cards the
    entry itself put on the table."""
    lines: list[str] = []
    if after.bout != before.bout:
        if after.discard == before.discard:  # the table did not go to the discard pile: it was picked up
            picked = before.table.bit_count() + added
            lines.append(format_plural(S.LOG_PICKED_UP, picked, player=names(after.last_defender)))
        else:
            lines.append(_(S.LOG_DEFENDED).format(player=names(after.last_defender)))
        for s in range(after.n):
            if after.out_at[s] >= 0 and before.out_at[s] < 0:
                lines.append(_(S.LOG_GOES_OUT).format(player=names(s)))
    if before.phase == DECLARING and after.phase == PLAYING:
        trumps = open_trumps(after)
        if any(after.denied[s] & trumps != trumps for s in range(after.n)):  # not "nobody holds a trump"
            lines.append(_(S.LOG_FIRST_ATTACK).format(player=names(after.opener), defender=names(after.defender)))
        else:
            lines.append(_(S.LOG_NOBODY_HAS_TRUMP).format(player=names(after.opener)))
    return lines


def is_bito(seat: int, view: State) -> bool:
    """A pass of `seat` is the first attacker's "done": the bout is beaten off (Bito) once the others pass too. Not
    after a take (the defender picks the cards up: no Bito), nor in the cheating variant (everyone passes there)."""
    return seat == view.attacker and not view.options.cheating and not view.taken


def quiet_action(action: Action, before: State, me: int) -> bool:
    """Moves that would crowd the short log: every seat's "no trump that low" while the first attacker is found
    (the trump shown and who attacks first are told), and passes, but our own and the first attacker's (in the
    cheating variant every seat passes after every card, so only our own are told)."""
    if isinstance(action, Declare):
        return action.card is None
    if not isinstance(action, Pass) or action.seat == me:
        return False
    return before.options.cheating or action.seat != before.attacker


def entry_lines(change: EntryApplied, names: Names) -> list[str]:
    """The log lines one applied entry adds (protocol steps such as keys and acks add none)."""
    lines: list[str] = []
    before, after = change.before, change.after
    added = 0
    for ev in change.events:
        if isinstance(ev, ActionApplied) and before is not None and after is not None:
            added += isinstance(ev.action, (Play, Beat, Transfer))
            if not quiet_action(ev.action, before, names.me):
                lines.append(action_text(ev.action, before, after, names))
        elif isinstance(ev, Verdict):
            lines.append(verdict_text(ev, names))
        elif isinstance(ev, Faulted):
            lines.append(fault_text(ev.seat, ev.reason, names))
    if before is not None and after is not None:
        lines += bout_end_lines(before, after, names, added)
    return lines


# ----------------------------------------------------------------------------------------------------- refusals

_SIMPLE_REFUSALS = {
    "already-passed": S.REFUSED_ALREADY_PASSED,
    "already-cleared": S.REFUSED_ALREADY_CLEARED,
    "already-caught": S.REFUSED_ALREADY_CAUGHT,
    "already-taken": S.REFUSED_ALREADY_TAKEN,
    "bout-not-open": S.REFUSED_BOUT_NOT_OPEN,
    "nothing-to-take": S.REFUSED_NOTHING_TO_TAKE,
    "not-defender": S.REFUSED_NOT_DEFENDER,
    "transfer-after-beat": S.REFUSED_TRANSFER_AFTER_BEAT,
    "transfer-disabled": S.REFUSED_TRANSFER_OFF,
    "show-disabled": S.REFUSED_SHOW_TRUMP_OFF,
    "already-shown": S.REFUSED_ALREADY_SHOWN,
    "cheating-disabled": S.REFUSED_CHALLENGE_OFF,
    "own-card": S.REFUSED_CHALLENGE_OWN,
    "not-on-table": S.REFUSED_CHALLENGE_GONE,
    "stale-action": S.REFUSED_STALE,
    "move-pending": S.REFUSED_MOVE_PENDING,
    "game-over": S.REFUSED_NOT_ALLOWED_NOW,
    "seat-out": S.REFUSED_NOT_ALLOWED_NOW,
    "declarations-pending": S.REFUSED_NOT_ALLOWED_NOW,
    "out-of-phase": S.REFUSED_NOT_ALLOWED_NOW,
}


def refusal_text(reason: str, action: Action | None, view: State | None, names: Names) -> str:
    """A clear sentence for a refused move of ours (reason codes of SPEC.md, rules and peer)."""
    simple = _SIMPLE_REFUSALS.get(reason)
    if simple is not None:
        return _(simple)
    honest = view is not None and action is not None and view.options.cheating and view.honest >> action.seat & 1
    if reason == "does-not-beat" and isinstance(action, Beat) and view is not None:
        if honest:
            return _(S.REFUSED_MUST_PLAY_HONESTLY)
        attack = view.attacks[action.attack_index]
        return _(S.REFUSED_DOES_NOT_BEAT).format(card=card_text(action.card), attack=card_text(attack))
    if reason == "already-beaten" and isinstance(action, Beat) and view is not None:
        return _(S.REFUSED_ALREADY_BEATEN).format(attack=card_text(view.attacks[action.attack_index]))
    if reason in ("rank-not-on-table", "wrong-rank") and honest:
        return _(S.REFUSED_MUST_PLAY_HONESTLY)
    if reason == "rank-not-on-table":
        return _(S.REFUSED_RANK_NOT_ON_TABLE)
    if reason == "wrong-rank" and view is not None and view.attacks:
        return _(S.REFUSED_TRANSFER_RANK).format(rank=rank_label(rank_of(view.attacks[0])))
    if reason == "attack-limit" and view is not None:
        return format_plural(S.REFUSED_ATTACK_FULL, view.limit)
    if reason == "defender-hand-limit":
        if isinstance(action, (Transfer, ShowTrump)):
            return _(S.REFUSED_TRANSFER_TOO_BIG)
        return _(S.REFUSED_DEFENDER_CANNOT_ANSWER)
    if reason == "not-your-turn":
        if view is not None and view.phase == PLAYING and not view.attacks:
            return _(S.REFUSED_ONLY_FIRST_ATTACKER_OPENS).format(player=names(view.opener))
        return _(S.REFUSED_NOT_YOUR_TURN)
    if reason == "not-attacker" and view is not None and action is not None:
        if action.seat == view.defender:
            if isinstance(action, Pass):
                return _(S.PHASE_YOUR_DEFENCE)  # the defender does not pass: beat or take
            return _(S.REFUSED_DEFENDER_CANNOT_THROW_IN)
        return _(S.REFUSED_PARTNER)
    if reason == "not-a-trump" and action is not None and hasattr(action, "card"):
        card = action.card
        return _(S.REFUSED_NOT_A_TRUMP).format(card=card_text(card)) if isinstance(card, int) else _(S.REFUSED)
    if reason in ("card-not-in-hand", "not-your-card"):
        return _(S.REFUSED_NOT_ALLOWED_NOW)
    return _(S.REFUSED).format(reason=reason)


def error_text(exc: DurakError, action: Action | None, view: State | None, names: Names) -> str:
    return refusal_text(exc.reason, action, view, names)


def host_refusal_text(refused: Refused, view: State | None, names: Names) -> str:
    return _(S.REFUSED_BY_HOST).format(reason=refusal_text(refused.reason, None, view, names))


def rank_label(rank: int) -> str:
    short = S.RANK_SHORT.get(rank)
    return _(short) if short is not None else str(rank)


# ------------------------------------------------------------------------------------------ phases and progress


def phase_text(phase: str, seats: int, next_seat: int | None, view: State | None) -> str | None:
    """The long step the game is in, or None while cards are being played."""
    if phase == peer_game.SHUFFLE:
        step = (next_seat if next_seat is not None else seats - 1) + 1
        return _(S.PHASE_SHUFFLING_STEP).format(step=step, total=seats)
    if phase == peer_game.LOCK:
        return _(S.PHASE_LOCKING)
    if phase in (peer_game.DEAL_ACK, peer_game.DEAL_KEYS):
        return _(S.PHASE_DEALING)
    if phase == peer_game.AUDIT:
        return _(S.PHASE_AUDIT)
    if phase == peer_game.PLAY and view is not None and view.phase == DECLARING:
        return _(S.PHASE_DECLARING)
    return None


UNREACHABLE_TEXTS = {sess.HOST_REFUSED: S.PHASE_HOST_REFUSED, sess.HOST_NO_ANSWER: S.PHASE_HOST_NO_ANSWER,
                     sess.HOST_NOT_A_TABLE: S.PHASE_HOST_NOT_A_TABLE}


def lobby_text(progress: Progress) -> str:
    """A progress line shown before the game (no roster yet: no player names)."""
    return progress_text(progress, Names((), 0))


def progress_text(progress: Progress, names: Names) -> str:
    kind = progress.kind
    if kind == sess.WAITING_FOR_PLAYERS:
        return _(S.PHASE_WAITING_FOR_PLAYERS).format(joined=progress.done, total=progress.total)
    if kind == sess.TABLE_CODE:
        return _(S.PHASE_TABLE_CODE).format(code=progress.text)
    if kind == sess.CONFIRM_START:
        return _(S.PHASE_CONFIRM_START)
    if kind == sess.INVITE:
        return _(S.PHASE_INVITE).format(link=progress.text)
    if kind == sess.RECONNECTING:
        if progress.total:
            return _(S.PHASE_RECONNECT_ATTEMPT).format(attempt=progress.done, total=progress.total)
        return _(S.PHASE_RECONNECTING).format(host=progress.text)
    if kind == sess.RECONNECTED:
        return _(S.PHASE_RECONNECTED)
    if kind in UNREACHABLE_TEXTS:
        return _(UNREACHABLE_TEXTS[kind]).format(address=progress.text, seconds=progress.total)
    if kind == sess.CATCHING_UP:
        return format_plural(S.PHASE_CATCHING_UP, progress.total)
    if kind == sess.PLAYER_DISCONNECTED:
        return _(S.PHASE_PLAYER_DISCONNECTED).format(player=names(progress.done))
    if kind == sess.PLAYER_BACK:
        return _(S.PHASE_PLAYER_BACK).format(player=names(progress.done))
    if kind == sess.MESH_UNLINKED:
        return _(S.PHASE_MESH_UNLINKED).format(player=names(progress.done))
    if kind == sess.CENSORED_MOVE:
        return _(S.PHASE_CENSORED_MOVE).format(player=names(progress.done), seconds=progress.total)
    if kind == sess.FALSE_REJECT:
        return _(S.PHASE_FALSE_REJECT)
    if kind == sess.SILENT_HOST:
        return _(S.PHASE_SILENT_HOST).format(seconds=progress.total)
    if kind == sess.STALLED:
        return _(S.PHASE_STALLED).format(player=names(progress.done), seconds=progress.total)
    return progress.text or kind


# ------------------------------------------------------------------------------------------------------ results


FORFEIT_TEXTS = {"leaving": S.RESULT_LEFT, "silent-seat": S.RESULT_WENT_SILENT,
                 "false-declaration": S.RESULT_FALSE_DECLARATION, "bad-shuffle": S.RESULT_FALSE_SHUFFLE,
                 "bad-lock": S.RESULT_FALSE_SHUFFLE}
STOP_TEXTS = {"connection-lost": S.ABORT_CONNECTION_LOST}


def stop_text(reason: str) -> str:
    """Why a game stopped, in words where we have them (a message the connection gave is passed as it is)."""
    known = STOP_TEXTS.get(reason)
    return _(known) if known is not None else reason


def fault_text(seat: int | None, reason: str, names: Names) -> str:
    if seat is None:
        return _(S.RESULT_ABORTED).format(reason=stop_text(reason))
    special = FORFEIT_TEXTS.get(reason)
    if special is not None:
        return _(special).format(player=names.plain(seat))
    return _(S.RESULT_FAULT).format(player=names.plain(seat), reason=reason)


def result_lines(result: GameResult | None, ended: GameEnded | None, me: int, names: Names) -> list[str]:
    """How the game ended, from our seat's point of view."""
    if result is None:
        return [_(S.RESULT_GAME_OVER)]
    lines: list[str] = []
    if ended is not None and ended.how == "abort":
        if result.forfeit is not None:
            lines.append(fault_text(result.forfeit, result.forfeit_reason, names))
        else:
            lines.append(_(S.RESULT_STOPPED))
        return lines
    if result.forfeit is not None:
        lines.append(fault_text(result.forfeit, result.forfeit_reason, names))
    if ended_at_bout_cap(result, len(names.seats)):
        lines.append(_(S.RESULT_DRAW_AT_CAP).format(bouts=MAX_BOUTS))
    elif result.draw:
        lines.append(_(S.RESULT_DRAW))
    elif result.losing_team is not None:
        if me in result.losing_team:
            lines.append(_(S.RESULT_YOUR_TEAM_LOST))
        else:
            players = ", ".join(names.plain(s) for s in result.losing_team)
            lines.append(_(S.RESULT_TEAM_LOST).format(players=players))
            lines.append(_(S.RESULT_YOUR_TEAM_SAFE))
    elif result.durak is not None:
        if result.durak == me:
            lines.append(_(S.RESULT_YOU_ARE_DURAK))
        else:
            lines.append(_(S.RESULT_PLAYER_IS_DURAK).format(player=names.plain(result.durak)))
            lines.append(_(S.RESULT_YOU_ARE_OUT))
    if result.pogony:
        if result.durak == me:
            lines.append(format_plural(S.RESULT_YOU_POGONY, result.pogony))
        elif result.durak is not None:
            lines.append(format_plural(S.RESULT_PLAYER_POGONY, result.pogony, player=names.plain(result.durak)))
    return lines


def match_score_text(score: Mapping[int, int], games: int, names: Names) -> str:
    """The match so far, saying what is counted: how many times each player was the durak."""
    parts = ", ".join(f"{names.plain(s)} ({format_plural(S.LABEL_TIMES_DURAK, score.get(s, 0))})"
                      for s in range(len(names.seats)))
    return format_plural(S.RESULT_MATCH_SCORE, games, score=parts)


def ended_of(events: Sequence[Event]) -> GameEnded | None:
    for ev in events:
        if isinstance(ev, GameEnded):
            return ev
    return None

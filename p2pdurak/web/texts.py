"""The page's words: the terminal's strings where they fit, and the few only a page needs, all in the same gettext
catalogs (p2pdurak/locale), so the page speaks the five languages with no second set of strings."""

from __future__ import annotations

from p2pdurak import i18n_strings as S
from p2pdurak.i18n import N_, NP_, Contextual, _
from p2pdurak.net.transport import HOLE_PUNCHED, RELAYED

WEB_NOT_OFFERED = N_("That move is not offered now.")
WEB_QUIT_BUTTON_HINT = N_("To leave the game, use the Leave button.")
WEB_NEXT_GAME = N_("Next game")
WEB_LEAVE = N_("Leave")
WEB_LEAVE_CONFIRM = N_("Leave the game? It counts as losing it: the others finish the game without you.")
# Translators: the page after its player left in the middle of a game
WEB_LEFT_GAME = N_("You left the game; it counts as a loss. You can close this page.")
# Translators: the page after its player left the table at the end of the game
WEB_LEFT_TABLE = N_("You left the table. You can close this page.")
# Translators: the page lost its connection to its p2pdurak (which may have stopped); nothing on it works now
WEB_GONE = N_("This page lost its connection to p2pdurak (it may have stopped): nothing here can be played now.")
WEB_DOWNLOAD = N_("Download the transcript")
WEB_LANGUAGE = N_("Language")
WEB_CONNECTING = N_("Connecting to the game…")
WEB_KEYS = N_("Keys")
WEB_PICK_ATTACK = N_("Now pick the table card to beat.")
WEB_VERIFY = N_("p2pdurak verify says:")
WEB_START = N_("Start the game with the players seated")
# Translators: the host's lobby, above the invite link and its short form
WEB_INVITE_HOW = N_("Send your friends this link, or read them the short form: they join with p2pdurak join and "
                    "the link (or paste it on their join page). A phone can scan the QR code.")
WEB_LINK_LABEL = N_("Invite link")
# Translators: the short form of the invite (address and key code), to read out across the table
WEB_SHORT_LABEL = N_("Short form, to read out")
# Translators: the host's lobby: the http link a friend opens in a browser (a phone scans it in the QR code) to sit
# at the table without installing anything
WEB_BROWSER_LABEL = N_("Browser link, to play without installing (the QR code)")
# Translators: the SHA-256 checksum of the browser seat's page that this computer serves to friends
WEB_DIGEST_LABEL = N_("SHA-256 of the browser page:")
# Translators: a button that copies the invite link (or its short form) to the clipboard
WEB_COPY = N_("Copy")
WEB_COPIED = N_("Copied")
# Translators: a joined player's lobby: the host's name and address; {host} is a name, {address} IP:port
WEB_TABLE_OF = N_("The table of {host} at {address}")
WEB_TABLE_AT = N_("The table at {address}")
# Translators: the list of players once the host has closed the table
WEB_SEATED_TITLE = N_("At the table")
# Translators: after a player's name in the list of players at the table
WEB_SEATED_HOST = N_("{name} (host)")
# Translators: what the page shows before its first news arrives
WEB_OPENING = N_("Opening the table…")
# Translators: the host's lobby once the table code is up: the host presses it when everyone sees the same code
WEB_CONFIRM_START = N_("Everyone sees this code: start the game")
# Translators: the host's lobby once the table code is up
WEB_CONFIRM_HINT = N_("Compare the table code aloud with every player. When all see the same code, start the game.")
# Translators: the page counts {seconds} down while the game waits for your move
WEB_TIME_LEFT = N_("Time left: {seconds} s")
WEB_JOIN_TITLE = N_("Join a table")
WEB_JOIN_PASTE = N_("Paste the invite link you were sent:")
# Translators: the button that joins the table of the pasted link (or of one table in the list of tables nearby)
WEB_JOIN_BUTTON = N_("Join")
WEB_NEARBY_TITLE = N_("Tables nearby")
WEB_NEARBY_NONE = N_("No table found nearby yet.")
# Translators: in the list of tables nearby: how full a table is
WEB_NEARBY_SEATS = N_("{joined} of {total} seats taken")
# Translators: what a screen reader says for the Join button of one table in the list of tables nearby
WEB_NEARBY_JOIN = N_("Join the table of {host}")

# How a seat's connection runs (the host's lobby, and each player on a joined seat's page)

# Translators: a connection that runs straight between the two machines
WEB_PATH_DIRECT = N_("direct")
# Translators: a connection that runs straight between two machines that are each behind a home router: both
# dialled each other at the same moment, so that each router let the other's call in as an answer
WEB_PATH_HOLE_PUNCHED = N_("direct (hole-punched through both routers)")
# Translators: a connection that runs through a third machine that passes the (encrypted) traffic on
WEB_PATH_RELAYED = N_("relayed (through a relay)")
WEB_LINKS_TITLE = N_("How the seats are connected")
# Translators: one row of the host's list of how the seats are connected; {path} is "direct", "direct (...)" or
# "relayed (...)"
WEB_LINK_SEAT = N_("Seat {seat}, {name}: {path}")
# Translators: under a player's name: how our connection to that player runs; {path} is "direct", "direct (...)"
# or "relayed (...)"
WEB_LINK_PLAYER = N_("connection: {path}")

# The game's options in plain words (the host's lobby)
WEB_OPT_SEATS = NP_("A table for up to {n} player", "A table for up to {n} players")
# Translators: {low} is the lowest rank in the deck (9, 6 or 2)
WEB_OPT_DECK = NP_("{n} card, from {low} up to the ace", "{n} cards, from {low} up to the ace")
WEB_OPT_PODKIDNOY = N_("Podkidnoy: the attackers may throw in cards of the ranks on the table")
WEB_OPT_PEREVODNOY = N_("Perevodnoy: the defender may pass the attack on with a card of the same rank")
WEB_OPT_SHOW_TRUMP = N_("The attack may also be passed on by showing a trump of that rank")
WEB_OPT_FIRST_FIVE = N_("At most five cards in the first attack, six later")
WEB_OPT_FIRST_SIX = N_("At most six cards in every attack")
WEB_OPT_NO_TEAMS = N_("Everyone plays for themselves")
WEB_OPT_TEAMS_2V2 = N_("Teams: two against two, partners sit opposite each other")
WEB_OPT_TEAMS_3V3 = N_("Teams: three against three, every other seat")
WEB_OPT_TEAMS_PAIRS = N_("Teams: three pairs, partners sit opposite each other")
WEB_OPT_CHEATING = N_("Cheating allowed: a false card stands unless another player challenges it")
WEB_OPT_HONEST = N_("No cheating: only legal moves can be made")
WEB_OPT_MOVE_TIMEOUT = NP_("Time for a move: {n} second", "Time for a move: {n} seconds")
WEB_OPT_NO_MOVE_TIMEOUT = N_("No time limit for a move")
WEB_OPT_PROOFS = N_("Every shuffle is proven fair (shuffle proofs)")
WEB_OPT_NO_PROOFS = N_("No shuffle proofs (for tests only): two players working together could steer the cards")

_PAGE: dict[str, str | Contextual] = {
    "game_name": S.GAME_NAME,
    "table": S.LABEL_TABLE,
    "hand": S.LABEL_YOUR_HAND,
    "players": S.LABEL_PLAYERS,
    "last_moves": S.LABEL_LAST_MOVES,
    "score": S.LABEL_SCORE,
    "you_can": S.LABEL_YOUR_MOVES,
    "no_moves": S.LABEL_NO_MOVES,
    "durak": S.ROLE_DURAK,
    "pogony": S.TERM_POGONY,
    "next_game": WEB_NEXT_GAME,
    "leave": WEB_LEAVE,
    "leave_confirm": WEB_LEAVE_CONFIRM,
    "gone": WEB_GONE,
    "download": WEB_DOWNLOAD,
    "language": WEB_LANGUAGE,
    "connecting": WEB_CONNECTING,
    "keys": WEB_KEYS,
    "pick_attack": WEB_PICK_ATTACK,
    "verify": WEB_VERIFY,
    "time_left": WEB_TIME_LEFT,
    "join_title": WEB_JOIN_TITLE,
    "join_paste": WEB_JOIN_PASTE,
    "join_button": WEB_JOIN_BUTTON,
    "join_forms": S.JOIN_LINK_FORMS,
    "nearby_title": WEB_NEARBY_TITLE,
    "nearby_none": WEB_NEARBY_NONE,
    "links_title": WEB_LINKS_TITLE,
    "help_play": S.HELP_PLAY,
    "help_beat": S.HELP_BEAT,
    "help_take": S.HELP_TAKE,
    "help_pass": S.HELP_PASS,
    "help_transfer": S.HELP_TRANSFER,
    "help_show": S.HELP_SHOW_TRUMP,
    "help_challenge": S.HELP_CHALLENGE,
    "help_numbers": S.HELP_CARD_NUMBERS,
    "help_legal": S.HELP_LEGAL_ONLY,
}


def path_text(path: str) -> str:
    """A connection's path (p2pdurak.net.transport's DIRECT, HOLE_PUNCHED or RELAYED) in plain words."""
    if path == RELAYED:
        return _(WEB_PATH_RELAYED)
    return _(WEB_PATH_HOLE_PUNCHED) if path == HOLE_PUNCHED else _(WEB_PATH_DIRECT)


def page_strings() -> dict[str, str]:
    """Every fixed text of the page in the installed language."""
    return {key: _(message) for key, message in _PAGE.items()}

"""Every message the terminal client, the bots' names and the game-end report show, marked for translation.

Show one with `i18n._(CONSTANT)` (a `str` or a `Contextual`), `.format(...)` its `{placeholders}`; a `Plural` with
`i18n.format_plural(CONSTANT, n, ...)`, which also fills `{n}`. Cards are formatted by the caller (`7♠`) and passed
in as `{card}`, players by name as `{player}` (this seat's own name formatted with PLAYER_NAME_YOU, so
the verb agrees in every language).
`tools/i18n_catalogs.py extract` reads this file; after adding or changing a message, run
`python tools/i18n_catalogs.py all` and translate the new entries in every `.po` file.
"""

from __future__ import annotations

from p2pdurak import i18n
from p2pdurak.cards import SUIT_SYMBOLS, rank_of, suit_of
from p2pdurak.i18n import N_, NC_, NP_

# ----------------------------------------------------------------------------------------------- names and terms

GAME_NAME = N_("Durak")
# Translators: the standard game, a Russian name kept in every language (ru: Подкидной).
VARIANT_PODKIDNOY = N_("Podkidnoy")
# Translators: the transfer game, a Russian name kept in every language (ru: Переводной).
VARIANT_PEREVODNOY = N_("Perevodnoy")
# Translators: Russian for "trump", kept as a term players use (ru: Козырь).
TERM_KOZYR = N_("Kozyr")
# Translators: Russian "I take", said by the defender who picks up (ru: Беру).
TERM_BERU = N_("Beru")
# Translators: Russian "beaten", the bout is over (ru: Бито).
TERM_BITO = N_("Bito")
# Translators: Russian "shoulder straps", sixes put on the durak's shoulders (ru: Погоны).
TERM_POGONY = N_("Pogony")
# Translators: "the fool", the loser of the game, as a word in a sentence ("X is the durak").
TERM_DURAK = N_("durak")

SUIT_CLUBS = N_("clubs")
SUIT_DIAMONDS = N_("diamonds")
SUIT_HEARTS = N_("hearts")
SUIT_SPADES = N_("spades")
SUIT_NAMES = (SUIT_CLUBS, SUIT_DIAMONDS, SUIT_HEARTS, SUIT_SPADES)  # index = suit number of p2pdurak.cards

# Translators: one- or two-letter card ranks as printed on the cards (de: B D K A, ru: В Д К Т).
RANK_JACK_SHORT = NC_("short rank", "J")
RANK_QUEEN_SHORT = NC_("short rank", "Q")
RANK_KING_SHORT = NC_("short rank", "K")
RANK_ACE_SHORT = NC_("short rank", "A")
RANK_SHORT = {11: RANK_JACK_SHORT, 12: RANK_QUEEN_SHORT, 13: RANK_KING_SHORT, 14: RANK_ACE_SHORT}

# ------------------------------------------------------------------------------------------------------- roles

ROLE_ATTACKER = NC_("role", "Attacker")
# Translators: the attacker who opened the bout (whose pass is "done", Bito).
ROLE_FIRST_ATTACKER = NC_("role", "First attacker")
ROLE_DEFENDER = NC_("role", "Defender")
# Translators: a team mate of this player.
ROLE_PARTNER = NC_("role", "Partner")
# Translators: a player who has no cards left after the stock ran out, and is safe.
ROLE_OUT = NC_("role", "Out")
ROLE_DURAK = NC_("role", "Durak")
# Translators: a player who was caught cheating or challenged an honest card.
ROLE_MARKED = NC_("role", "Must play honestly")
PLAYER_YOU = N_("you")
# Translators: the name a player gets at the table when they give none.
PLAYER_DEFAULT_NAME = N_("Player")
# Translators: this player's own name in lists, e.g. "Anna (you)".
PLAYER_NAME_YOU = N_("{name} (you)")
BOT_NAME = N_("Computer {n}")
LEVEL_EASY = NC_("bot level", "easy")
LEVEL_NORMAL = NC_("bot level", "normal")
LEVEL_HARD = NC_("bot level", "hard")
BOT_WITH_LEVEL = N_("{name} (computer, {level})")

# ------------------------------------------------------------------------------------ move names (menus, keys)

MOVE_PLAY = NC_("move", "Play")
MOVE_THROW_IN = NC_("move", "Throw in")
MOVE_BEAT = NC_("move", "Beat")
MOVE_TAKE = NC_("move", "Take (Beru)")
MOVE_PASS = NC_("move", "Pass")
MOVE_DONE = NC_("move", "Done (Bito)")
MOVE_TRANSFER = NC_("move", "Transfer")
MOVE_SHOW_TRUMP = NC_("move", "Show trump")
MOVE_CHALLENGE = NC_("move", "Challenge")
MOVE_DECLARE_LOWEST_TRUMP = NC_("move", "Show lowest trump")
MOVE_DECLARE_NO_TRUMP = NC_("move", "None that low")
MOVE_QUIT = NC_("move", "Quit")
MOVE_HELP = NC_("move", "Help")
# Translators: a mark next to a move that is a cheat (cheating variant only).
MOVE_CHEAT_MARK = N_("cheat")
MOVE_WITH_CHEAT_MARK = N_("{move} ({cheat})")

# --------------------------------------------------------------------------------- moves in the log of last moves

LOG_OPENS = N_("{player} attacks with {card}")
LOG_THROWS_IN = N_("{player} throws in {card}")
LOG_BEATS = N_("{player} beats {attack} with {card}")
LOG_TAKES = N_("{player} takes the cards: Beru!")
LOG_PASSES = N_("{player} passes")
LOG_DONE = N_("{player}: done, Bito!")
LOG_TRANSFERS = N_("{player} transfers with {card} to {defender}")
LOG_SHOWS_TRUMP = N_("{player} shows the trump {card} and transfers to {defender}")
LOG_CHALLENGES = N_("{player} challenges {card}")
LOG_DECLARES_LOWEST_TRUMP = N_("{player} shows the lowest trump {card}")
LOG_DECLARES_NO_TRUMP = N_("{player} holds no trump up to {card}")
LOG_CAUGHT = N_("Caught! {player} cheated with {card}; the table goes back to before the cheat.")
LOG_CAUGHT_TAKEN_BACK = N_("Caught! {player} cheated with {card}, which an earlier challenge had already put back; "
                           "{player} must play honestly from now on.")
LOG_HONEST = N_("{card} was honest: {player} must play honestly from now on.")
LOG_DEFENDED = N_("Bito: {player} beat every card.")
LOG_PICKED_UP = NP_("{player} picks up {n} card.", "{player} picks up {n} cards.")
LOG_DRAWS = NP_("{player} draws {n} card.", "{player} draws {n} cards.")
LOG_GOES_OUT = N_("{player} has no cards left and is out.")
LOG_FIRST_ATTACK = N_("{player} attacks first, against {defender}.")
LOG_NOBODY_HAS_TRUMP = N_("Nobody holds a trump: {player} attacks first.")

# ---------------------------------------------------------------------------------------------------- the table

LABEL_TRUMP = N_("Trump (Kozyr): {card}")
LABEL_TRUMP_SUIT = N_("Trump suit: {suit}")
LABEL_STOCK = NP_("Stock: {n} card", "Stock: {n} cards")
LABEL_STOCK_EMPTY = N_("Stock: empty")
LABEL_DISCARDS = NP_("Discard pile: {n} card", "Discard pile: {n} cards")
LABEL_TABLE = N_("Table")
LABEL_TABLE_EMPTY = N_("The table is empty.")
LABEL_YOUR_HAND = N_("Your hand")
LABEL_PLAYERS = N_("Players")
LABEL_HAND_SIZE = NP_("{n} card", "{n} cards")
LABEL_LAST_MOVES = N_("Last moves")
LABEL_SCORE = N_("Score")
# Translators: in the match score, how many times a player was the durak.
LABEL_TIMES_DURAK = NP_("durak {n} time", "durak {n} times")
LABEL_GAME_OF_MATCH = N_("Game {number}")
LABEL_BOUT = N_("Bout {number}")
LABEL_ATTACK_LIMIT = N_("Attack cards: {cards} of {limit}")
LABEL_UNBEATEN = N_("not beaten yet")
LABEL_SHOWN_CARDS = N_("Known cards: {cards}")
LABEL_OPTIONS = N_("Options")
OPTION_DECK = NP_("{n}-card deck", "{n}-card deck")
OPTION_TRANSFER = N_("Transfer (Perevodnoy)")
OPTION_TRANSFER_BY_SHOWING_TRUMP = N_("Transfer by showing a trump")
OPTION_FIRST_BOUT_FIVE = N_("Five cards in the first attack")
OPTION_TEAMS = N_("Teams")
OPTION_CHEATING = N_("Cheating allowed")

# ------------------------------------------------------------------------------------------------------- phases

PHASE_WAITING_FOR_PLAYERS = N_("Waiting for players: {joined} of {total} have joined.")
# Translators: a joined player's lobby, after "Waiting for players: 2 of 3 have joined."
PHASE_HOST_STARTS = N_("The host starts the game.")
PHASE_WAITING_FOR_MORE = NP_("Waiting for {n} more player…", "Waiting for {n} more players…")
PHASE_INVITE = N_("Invite link: {link}")
PHASE_TABLE_CODE = N_("Table code: {code}. Compare it aloud with the other players before the shuffle.")
# Translators: the host's screen once everyone else has signed the table: the host starts the game (Enter)
PHASE_CONFIRM_START = N_("Compare the table code aloud with every player; when all see the same code, press Enter "
                         "to start the game.")
# Translators: in the header during the game: the code the players compared before the shuffle
LABEL_TABLE_CODE = N_("Table code {code}")
PHASE_SHUFFLING = N_("Shuffling the deck…")
PHASE_SHUFFLING_STEP = N_("Shuffling: player {step} of {total}…")
PHASE_LOCKING = N_("Locking the deck…")
PHASE_CHECKING_PROOFS = N_("Checking the shuffle proofs…")
PHASE_DEALING = N_("Dealing…")
PHASE_DECLARING = N_("Finding the lowest trump…")
PHASE_YOUR_MOVE = N_("Your move.")
PHASE_YOUR_ATTACK = N_("Your attack: play any card.")
PHASE_YOU_MAY_THROW_IN = N_("You may throw in, or pass.")
PHASE_YOUR_DEFENCE = N_("You defend: beat every card, or take.")
PHASE_WAITING_FOR_PLAYER = N_("Waiting for {player}…")
PHASE_WAITING_FOR_N = NP_("Waiting for {n} player…", "Waiting for {n} players…")
PHASE_RECONNECTING = N_("Connection lost. Reconnecting to {host}…")
PHASE_RECONNECT_ATTEMPT = N_("Reconnecting: attempt {attempt} of {total}…")
PHASE_RECONNECTED = N_("Reconnected; caught up with the game.")
# Translators: the host of the invite was never reached; {address} is where the invite points (IP:port)
PHASE_HOST_REFUSED = N_("Nothing answers at {address}: the connection was refused. Check that this is the address "
                        "the host gave you and that the host's p2pdurak is still running. Trying again for up to "
                        "{seconds} s…")
PHASE_HOST_NO_ANSWER = N_("No answer from {address} yet. Check that this is the address the host gave you, that the "
                          "host's p2pdurak is still running, and that no firewall blocks the connection. Trying again "
                          "for up to {seconds} s…")
PHASE_HOST_NOT_A_TABLE = N_("Something at {address} answered, but not as a p2pdurak table. Check that this is the "
                            "address the host gave you. Trying again for up to {seconds} s…")
# Translators: the join gave up; {address} is where the invite points (IP:port)
PHASE_HOST_GAVE_UP = N_("Could not reach the host at {address}. Check the address, that the host's p2pdurak is "
                        "still running, and that no firewall blocks the connection; then join again.")
PHASE_CATCHING_UP = NP_("Catching up: {n} move to check…", "Catching up: {n} moves to check…")
PHASE_PLAYER_DISCONNECTED = N_("{player} lost the connection; waiting for them to come back.")
PHASE_PLAYER_BACK = N_("{player} is back.")
# Translators: this seat could not open its direct connection to another player's machine (9.11).
PHASE_MESH_UNLINKED = N_("No direct connection to {player} (a firewall?): the host could hide their moves from you.")
# Translators: the host neither logged nor refused a move this seat saw (R-GAME-17); the game stops here.
PHASE_CENSORED_MOVE = N_("The host hid a move of {player} for {seconds} s. The game stops: your transcript keeps a "
                         "signed accusation of the host.")
# Translators: the host signed a refusal of a valid move of this seat (R-GAME-22); the game stops here.
PHASE_FALSE_REJECT = N_("The host refused your valid move (it has seen your card). The game stops: your transcript "
                        "keeps the host's signed refusal, which proves it.")
# Translators: the game waited on the host itself too long (R-GAME-21); the game stops here.
PHASE_SILENT_HOST = N_("The host has not moved for {seconds} s. The game stops: your transcript keeps a signed "
                       "accusation of the host.")
# Translators: the game waited on another player too long and the host ended nothing (R-GAME-21a); the game stops
# here without a result.
PHASE_STALLED = N_("The game has waited on {player} for {seconds} s and the host has not ended it. The game stops "
                   "here without a result: nobody loses.")
PHASE_AUDIT = N_("Checking every card and declaration of the game…")
PHASE_NEXT_GAME = N_("Press Enter for the next game, or q to quit.")

# ------------------------------------------------------------------------------------------------------ results

RESULT_YOU_ARE_DURAK = N_("You are the durak!")
RESULT_PLAYER_IS_DURAK = N_("{player} is the durak.")
RESULT_DRAW = N_("A draw: nobody is the durak.")
RESULT_DRAW_AT_CAP = N_("A draw: the game reached {bouts} bouts, the most a game lasts, so nobody is the durak.")
RESULT_YOU_ARE_OUT = N_("You are out of cards: you are safe.")
RESULT_YOU_POGONY = NP_(
    "Pogony! You get shoulder straps: {n} six.", "Pogony! You get shoulder straps: {n} sixes."
)
RESULT_PLAYER_POGONY = NP_(
    "Pogony! {player} gets shoulder straps: {n} six.", "Pogony! {player} gets shoulder straps: {n} sixes."
)
RESULT_YOUR_TEAM_LOST = N_("Your team lost: you are the durak together.")
RESULT_YOUR_TEAM_SAFE = N_("Your team is safe.")
RESULT_TEAM_LOST = N_("The team of {players} is the durak.")
RESULT_GAME_OVER = N_("Game over.")
RESULT_ABORTED = N_("The game was aborted: {reason}")
# Translators: the game ended without a loser (a player left or went silent where nobody could prove it)
RESULT_STOPPED = N_("The game was stopped; nobody loses.")
RESULT_LEFT = N_("{player} left the game and loses it.")
# Translators: every other player signed that {player} kept the game waiting too long
RESULT_WENT_SILENT = N_("{player} stopped answering and loses the game (every other player signed that).")
RESULT_FALSE_DECLARATION = N_("{player} showed a false lowest trump and loses the game.")
# Translators: the audit at the end found that {player} did not shuffle or lock the deck honestly
RESULT_FALSE_SHUFFLE = N_("The audit found that {player} did not shuffle honestly: {player} loses the game.")
# Translators: why a game stopped: {reason} of "The game was aborted: {reason}"
ABORT_CONNECTION_LOST = N_("the connection to the host was lost")
RESULT_FAULT = N_("{player} broke the protocol ({reason}) and loses the game.")
RESULT_HOST_ACCUSED = N_("The host did not pass on a move in time; the game was stopped.")
RESULT_MATCH_SCORE = NP_("Score after {n} game: {score}", "Score after {n} games: {score}")

# ------------------------------------------------------------------------------------- refusals of illegal moves

REFUSED = N_("Not allowed: {reason}")
REFUSED_NOT_YOUR_TURN = N_("It is not your turn.")
REFUSED_NOT_ALLOWED_NOW = N_("That move is not allowed now.")
REFUSED_NO_SUCH_CARD = N_("You have no card {key}.")
REFUSED_NO_SUCH_TABLE_CARD = N_("There is no card {key} on the table.")
REFUSED_DOES_NOT_BEAT = N_("{card} does not beat {attack}.")
REFUSED_ALREADY_BEATEN = N_("{attack} is already beaten.")
REFUSED_RANK_NOT_ON_TABLE = N_("You can only throw in a rank that is already on the table.")
REFUSED_ATTACK_FULL = NP_("The attack is full: at most {n} card.", "The attack is full: at most {n} cards.")
REFUSED_DEFENDER_CANNOT_ANSWER = N_("The defender has no more cards to answer with.")
REFUSED_ONLY_FIRST_ATTACKER_OPENS = N_("Only {player} may open the bout.")
REFUSED_NOTHING_TO_TAKE = N_("You can only take while an attack card is unbeaten.")
REFUSED_NOT_DEFENDER = N_("Only the defender can do that.")
REFUSED_DEFENDER_CANNOT_THROW_IN = N_("The defender cannot throw in.")
REFUSED_PARTNER = N_("You do not attack your partner.")
REFUSED_TRANSFER_AFTER_BEAT = N_("You can transfer only before you beat any card.")
REFUSED_TRANSFER_RANK = N_("A transfer needs a card of the attack rank, {rank}.")
REFUSED_TRANSFER_TOO_BIG = N_("The next defender would have too few cards for the attack.")
REFUSED_TRANSFER_OFF = N_("Transfers are not part of this game.")
REFUSED_SHOW_TRUMP_OFF = N_("Transfer by showing a trump is not part of this game.")
REFUSED_ALREADY_SHOWN = N_("That trump has already been shown in this bout.")
REFUSED_CHALLENGE_OFF = N_("There is nothing to challenge: cheating is not part of this game.")
REFUSED_CHALLENGE_OWN = N_("You cannot challenge your own card.")
REFUSED_CHALLENGE_GONE = N_("That card is no longer on the table.")
REFUSED_MUST_PLAY_HONESTLY = N_("You must play honestly for the rest of the game.")
REFUSED_STALE = N_("The table changed before your move arrived; look again.")
REFUSED_BY_HOST = N_("The host refused the move: {reason}")
REFUSED_UNKNOWN_COMMAND = N_("Unknown command: {command}. Press ? for help.")
REFUSED_NEED_CARD = N_("Which card? Add its number, e.g. {example}.")
REFUSED_ALREADY_PASSED = N_("You have already passed; wait for the table to change.")
REFUSED_ALREADY_CLEARED = N_("That card was challenged already and found honest.")
REFUSED_ALREADY_CAUGHT = N_("That card was challenged already and caught.")
REFUSED_ALREADY_TAKEN = N_("The defender has already taken the cards.")
REFUSED_BOUT_NOT_OPEN = N_("No card has been played in this bout yet.")
REFUSED_NOT_A_TRUMP = N_("{card} is not a trump.")
REFUSED_MOVE_PENDING = N_("Wait: your last move is still on its way.")
REFUSED_NOT_NOW_SETUP = N_("Wait until the cards are dealt.")

# ------------------------------------------------------------------------------------------------- help screen

HELP_TITLE = N_("Keys")
HELP_PLAY = N_("play card N: open the attack or throw in")
HELP_BEAT = N_("beat table card A with your card N")
HELP_TAKE = N_("take all cards on the table (Beru)")
HELP_PASS = N_("pass; the first attacker's pass is done (Bito)")
HELP_TRANSFER = N_("transfer the attack with your card N (Perevodnoy)")
HELP_SHOW_TRUMP = N_("transfer by showing your trump N")
HELP_CHALLENGE = N_("challenge table card A as a cheat")
HELP_DECLARE = N_("show your lowest trump N if it is at most the asked one, or say you hold none that low")
HELP_RULES = N_("show the rules")
HELP_HELP = N_("show this help")
HELP_QUIT = N_("leave the game")
HELP_CARD_NUMBERS = N_("N is the number under a card in your hand, A the number of a card on the table.")
HELP_CHEAT_MARK = N_("Moves marked ({cheat}) are cheats: anyone may challenge them while the card is on the table.")
HELP_LEGAL_ONLY = N_("Only the moves you may make now are offered.")
HELP_CHALLENGE_COVER = N_("challenge the card that covers table card A")
HELP_ANY_KEY = N_("Press Enter to go back to the game.")
LABEL_YOUR_MOVES = N_("You can")
LABEL_NO_MOVES = N_("Nothing to do now.")
QUIT_CONFIRM = N_("Leave the game? It counts as losing it. Type y to leave, anything else to stay.")
QUIT_LEFT = N_("You left the game.")

# ------------------------------------------------------------------------------------------ joining a table

# Translators: `p2pdurak join` with no link asks for one at this prompt
JOIN_PROMPT = N_("Invite link (durak://… or HOST:PORT and the key code): ")
JOIN_NOT_A_LINK = N_("That is not an invite link.")
JOIN_LINK_FORMS = N_(
    "An invite link looks like durak://HOST:PORT/GAME-ID#KEY, or HOST:PORT followed by the 12-character key code "
    "(abcd-efgh-ijkl)."
)
# Translators: `p2pdurak join` with no link looks for tables announced on the local network for a few seconds
NEARBY_LOOKING = N_("Looking for tables on this network ({seconds} s)…")
NEARBY_OFF = N_("Looking for tables on this network is off ({variable} is set).")
NEARBY_CANNOT = N_("Cannot look for tables on this network: {error}")
NEARBY_NONE = N_("No table found on this network.")
# Translators: one table found nearby: the host's name, its address, how full it is ({seats}), its options
NEARBY_TABLE = N_("{host} at {address}: {seats}; {options}")
NEARBY_SEATS = N_("{taken} of {total} seated, {free} free")
# Translators: a table found nearby whose game has started (no seat is free)
NEARBY_PLAYING = N_("playing")
NEARBY_PROMPT = N_("Table number, or invite link (Enter: look again): ")
NEARBY_NO_SUCH = N_("There is no table {number}.")
NEARBY_FULL = N_("{host}'s table has no free seat.")
NEARBY_JOINING = N_(
    "Joining {host}'s table. Compare the table code aloud before the game starts: anyone on this network can "
    "announce a table."
)

# ---------------------------------------------------------------------------------------- transcripts, verify

TRANSCRIPT_SAVED = N_("Transcript saved to {path}")
TRANSCRIPT_VERIFY_WITH = N_("Anyone can check this game with: {command}")
VERIFY_CHECKING = N_("Checking {path}…")
VERIFY_VALID = N_("The transcript is valid: every move and every card checks out.")
VERIFY_RESULT = N_("Result: {result}")
VERIFY_ENTRIES = NP_("{n} entry checked.", "{n} entries checked.")
VERIFY_INVALID = N_("The transcript is NOT valid: {reason}")
VERIFY_FAULT = N_("Seat {seat} is at fault: {reason}")
TRANSCRIPT_NOT_SAVED = N_("Could not save the transcript: {reason}")


def card_text(card: int) -> str:
    """A card for people in the installed language: rank letters as printed on the cards there (`B♠`, `В♠`, `10♥`)."""
    rank = rank_of(card)
    label = i18n.gettext(RANK_SHORT[rank]) if rank in RANK_SHORT else str(rank)
    return label + SUIT_SYMBOLS[suit_of(card)]


def suit_name(suit: int) -> str:
    return i18n.gettext(SUIT_NAMES[suit])

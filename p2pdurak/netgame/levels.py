"""The computer player levels a seat may be given (kept light: the command line's parsers import it)."""

BOT_LEVELS = ("easy", "normal", "hard", "random")

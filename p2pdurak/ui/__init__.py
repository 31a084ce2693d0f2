"""The terminal client: a seat's view of the game, drawn for people, driven by short keys (issue 6)."""

"""The browser table: each seat's own process serves its player a page on 127.0.0.1 (p2pdurak.web.server) that shows
the seat's view and sends the player's actions back; the keys, the checks and the log stay in Python."""

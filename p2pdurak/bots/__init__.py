"""Computer players (easy, normal, hard) that see only their own seat's view, and bot-against-bot games."""

from p2pdurak.bots.base import Bot, NotAView, actor, check_view, is_cheat, peer_chooser, suspicious_cards
from p2pdurak.bots.easy import EasyBot
from p2pdurak.bots.heuristic import NormalBot, Style, heuristic_action
from p2pdurak.bots.levels import LEVELS, make_bot
from p2pdurak.bots.match import StuckGame, play_game
from p2pdurak.bots.search import Budget, HardBot

__all__ = [
    "LEVELS",
    "Bot",
    "Budget",
    "EasyBot",
    "HardBot",
    "NormalBot",
    "NotAView",
    "StuckGame",
    "Style",
    "actor",
    "check_view",
    "heuristic_action",
    "is_cheat",
    "make_bot",
    "peer_chooser",
    "play_game",
    "suspicious_cards",
]

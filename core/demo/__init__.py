"""A complete, plausible Kalooki event, made by simulating every table's score sheet
(`manage.py demo_event`).

Each hand is played out as far as scoring needs (`simulator`): a real deck is
shuffled, every player is dealt, one player goes out and the others keep a realistic
part of their hand (so totals are real card values, within every bound), with the odd
down-and-out, redeal and over-call. Every hand is checked by `game.rules` exactly as a
director's entry would be, then written in bulk with its history (`hands`, `bulk`).
"""

from __future__ import annotations

from core.demo.event import DemoOptions, demo_screens, generate_demo_event
from core.demo.hands import DEMO_DATA
from core.demo.players import make_players
from core.demo.simulator import Simulator

__all__ = [
    "DEMO_DATA",
    "DemoOptions",
    "Simulator",
    "demo_screens",
    "generate_demo_event",
    "make_players",
]

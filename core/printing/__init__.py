"""Printable PDFs: a round's table cards, score sheets and player slips, an event's
results and a series' standings."""

from __future__ import annotations

from core.printing.common import PAPER, default_base_url, printable, requested_paper
from core.printing.find_table import find_your_table_pdf
from core.printing.results import results_pdf
from core.printing.series import series_pdf
from core.printing.slips import player_slips_pdf
from core.printing.tables import score_sheets_pdf, table_cards_pdf

__all__ = [
    "PAPER",
    "default_base_url",
    "find_your_table_pdf",
    "player_slips_pdf",
    "printable",
    "requested_paper",
    "results_pdf",
    "score_sheets_pdf",
    "series_pdf",
    "table_cards_pdf",
]

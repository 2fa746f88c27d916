"""Printable PDFs: a round's table cards, score sheets and player slips, an event's
results and a series' standings."""

from __future__ import annotations

from core.pdf import PAPER, default_base_url, printable, requested_paper
from core.seating.find_table import find_your_table_pdf
from core.seating.printing import score_sheets_pdf, table_cards_pdf
from core.series.printing import series_pdf
from core.standings.printing import results_pdf
from core.table_entry.printing import player_slips_pdf

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

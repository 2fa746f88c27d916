"""What every printed document shares: the paper, the font (and the text it can
show), the styles, the page footer, QR codes and tick boxes.

Drawn with ReportLab in DejaVu Sans, shipped in core/fonts/ with its licence and
embedded in every PDF (only the letters used): names print as they are written, in
Latin with every accent, Cyrillic, Greek, and Arabic script with the Persian letters,
joined and right to left (arabic-reshaper and python-bidi). A letter the font lacks
prints without its accent, or as '?'. A QR code (made with segno) is drawn as vector
squares, sharp at any size.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

import arabic_reshaper
import segno
from bidi import get_display
from django.conf import settings
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, SimpleDocTemplate

from core.errors import Missing
from core.site.selectors import site_url
from tournaments.models import Event, Round

PAPER = {"letter": letter, "a4": A4}
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
FONTS = Path(__file__).resolve().parent / "fonts"
FONT = "KalookiSans"
BOLD = "KalookiSans-Bold"
pdfmetrics.registerFont(TTFont(FONT, FONTS / "DejaVuSans.ttf"))
pdfmetrics.registerFont(TTFont(BOLD, FONTS / "DejaVuSans-Bold.ttf"))
# <i> draws upright: DejaVu's oblique faces lack the Arabic letters.
pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)
GREEN = colors.HexColor("#00693e")
MARGIN = 15 * mm


def paper_size(paper: str | None) -> tuple[float, float]:
    """Letter unless asked otherwise (or settings.PAPER_SIZE says so): what printers
    in Jamaica and Trinidad are loaded with."""
    name = (paper or getattr(settings, "PAPER_SIZE", "letter")).lower()
    if name not in PAPER:
        raise ValueError(f"paper must be one of {', '.join(PAPER)}, not {paper!r}")
    return PAPER[name]


def requested_paper(request: HttpRequest) -> str | None:
    """The paper a download asks for (`?paper=letter` or `a4`; None: the default); an
    unknown one is a 404, as a page that does not exist."""
    chosen = request.GET.get("paper")
    if chosen is not None and chosen not in PAPER:
        raise Missing(_("Unknown paper size."))
    return chosen


def default_base_url() -> str:
    """Where the public site lives, for PDFs made outside a request (commands): the
    address set on the director's pages, else SITE_URL, else this computer."""
    return site_url(DEFAULT_BASE_URL)


def table_path(event: Event, round_number: int, table_number: int) -> str:
    kwargs = {"slug": event.slug, "number": round_number, "table": table_number}
    try:
        return reverse("public-table", kwargs=kwargs)
    except NoReverseMatch:
        return f"/events/{event.slug}/rounds/{round_number}/tables/{table_number}/"


def table_url(base_url: str, event: Event, round_number: int, table_number: int) -> str:
    return base_url.rstrip("/") + table_path(event, round_number, table_number)


def table_entry_url(
    base_url: str, event: Event, round_number: int, table_number: int, code: str
) -> str:
    """The table's entry page for players, with a player's code filled in."""
    kwargs = {"slug": event.slug, "number": round_number, "table": table_number}
    try:
        path = reverse("public-table-entry", kwargs=kwargs)
    except NoReverseMatch:
        path = f"/events/{event.slug}/rounds/{round_number}/tables/{table_number}/enter/"
    return f"{base_url.rstrip('/')}{path}?code={code}"


def find_table_url(base_url: str, event: Event) -> str:
    """Where a player types their code to find their table."""
    try:
        path = reverse("public-enter", kwargs={"slug": event.slug})
    except NoReverseMatch:
        path = f"/events/{event.slug}/enter/"
    return base_url.rstrip("/") + path


GLYPHS = frozenset(pdfmetrics.getFont(FONT).face.charToGlyph) & frozenset(
    pdfmetrics.getFont(BOLD).face.charToGlyph
)
# Letters written right to left (Hebrew, Arabic and their presentation forms).
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


def printable(text: str) -> str:
    """Text as the font draws it: Arabic script joined and in the order it is seen
    (right to left), a letter the font lacks without its accent, or '?'."""
    if RIGHT_TO_LEFT.search(text):
        text = get_display(arabic_reshaper.reshape(text))
    out = []
    for char in text:
        if ord(char) in GLYPHS or char in "\n\t":
            out.append(char)
            continue
        plain = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        out.append(plain if plain and all(ord(c) in GLYPHS for c in plain) else "?")
    return "".join(out)


def markup(text: str) -> str:
    """Plain text made safe for a Paragraph (which reads a little XML)."""
    return escape(printable(text))


def style(name: str, *, size: float, font: str = FONT, **extra) -> ParagraphStyle:
    extra.setdefault("leading", size * 1.2)
    return ParagraphStyle(name, fontName=font, fontSize=size, **extra)


SMALL = style("small", size=8, textColor=colors.HexColor("#444444"))
BODY = style("body", size=10)
CELL = style("cell", size=9)
CELL_BOLD = style("cellbold", size=9, font=BOLD)
HEADING = style("heading", size=16, font=BOLD, spaceAfter=2 * mm)
TITLE = style("title", size=22, font=BOLD, spaceAfter=3 * mm)
HEAD = style("head", size=8, font=BOLD, splitLongWords=0)
HEAD_RIGHT = style("headright", size=8, font=BOLD, splitLongWords=0, alignment=TA_RIGHT)


def grid_commands() -> list[tuple]:
    """A results grid's look: a ruled heading row, then banded rows."""
    return [
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3f7f5")]),
    ]


class QRCode(Flowable):
    """A QR code drawn module by module, with the quiet zone the standard asks for."""

    QUIET = 4

    def __init__(self, data: str, size: float):
        super().__init__()
        self.qr = segno.make(data, error="m", micro=False)
        self.size = size
        self.width = self.height = size

    def draw(self) -> None:
        matrix = self.qr.matrix
        modules = len(matrix) + 2 * self.QUIET
        unit = self.size / modules
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(colors.white)
        canvas.rect(0, 0, self.size, self.size, stroke=0, fill=1)
        canvas.setFillColor(colors.black)
        for y, line in enumerate(matrix):
            top = self.size - (y + self.QUIET + 1) * unit
            x = 0
            while x < len(line):
                if not line[x]:
                    x += 1
                    continue
                start = x
                while x < len(line) and line[x]:
                    x += 1
                # A hair of overlap so no white seams show between squares.
                canvas.rect(
                    (start + self.QUIET) * unit,
                    top,
                    (x - start) * unit + 0.05,
                    unit + 0.05,
                    stroke=0,
                    fill=1,
                )
        canvas.restoreState()


def document(
    title: str, pagesize: tuple[float, float], *, footer: str = ""
) -> tuple[SimpleDocTemplate, io.BytesIO, Callable]:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=printable(title),
        author="Kalooki tournaments",
        creator="Kalooki tournaments",
    )

    def on_page(canvas: Canvas, doc: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillColor(colors.HexColor("#666666"))
        text = printable(
            _("%(footer)s  ·  page %(page)s") % {"footer": footer, "page": doc.page}
            if footer
            else _("page %(page)s") % {"page": doc.page}
        )
        canvas.drawRightString(pagesize[0] - MARGIN, MARGIN / 2, text)
        canvas.restoreState()

    return doc, buffer, on_page


def draft_note(round_: Round) -> str:
    if round_.status in (Round.Status.DRAFT, Round.Status.SEATING):
        return _("DRAFT SEATING - it may still change before the round is published.")
    return ""


class CheckBox(Flowable):
    """An empty square to tick."""

    def __init__(self, size: float):
        super().__init__()
        self.width = self.height = size

    def draw(self) -> None:
        self.canv.setLineWidth(0.8)
        self.canv.rect(0, 0, self.width, self.height, stroke=1, fill=0)

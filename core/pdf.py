"""What every printed document shares: the paper, the built-in font (and the text it
can show), the styles, the page footer, QR codes and tick boxes.

Drawn with ReportLab in its built-in Helvetica, so nothing is downloaded or embedded;
a name with a letter that font lacks is printed without its accent. A QR code (made
with segno) is drawn as vector squares, sharp at any size.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable
from xml.sax.saxutils import escape

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, SimpleDocTemplate

from core.errors import Missing
from core.site.selectors import site_url
from tournaments.models import Event, Round

PAPER = {"letter": letter, "a4": A4}
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
FONT = "Helvetica"
BOLD = "Helvetica-Bold"
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
        raise Missing("Unknown paper size.")
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


# Letters with a stroke, which Unicode does not decompose into a base letter and a mark.
STROKED = str.maketrans("ŁłĐđĦħıŦŧĿŀ", "LlDdHhiTtLl")


def printable(text: str) -> str:
    """Text the built-in font can show: letters it lacks lose their accent, or become '?'."""
    out = []
    for char in text.translate(STROKED):
        try:
            char.encode("cp1252")
            out.append(char)
            continue
        except UnicodeEncodeError:
            pass
        plain = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        try:
            plain.encode("cp1252")
            out.append(plain or "?")
        except UnicodeEncodeError:
            out.append("?")
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
        text = printable(f"{footer}  ·  page {doc.page}" if footer else f"page {doc.page}")
        canvas.drawRightString(pagesize[0] - MARGIN, MARGIN / 2, text)
        canvas.restoreState()

    return doc, buffer, on_page


def draft_note(round_: Round) -> str:
    if round_.status in (Round.Status.DRAFT, Round.Status.SEATING):
        return "DRAFT SEATING - it may still change before the round is published."
    return ""


class CheckBox(Flowable):
    """An empty square to tick."""

    def __init__(self, size: float):
        super().__init__()
        self.width = self.height = size

    def draw(self) -> None:
        self.canv.setLineWidth(0.8)
        self.canv.rect(0, 0, self.width, self.height, stroke=1, fill=0)

"""What every printed document shares: the paper, the font (and the text it can
show), the styles, the page footer, QR codes and tick boxes.

Drawn with ReportLab in DejaVu Sans, shipped in core/fonts/ with its licence and
embedded in every PDF (only the letters used): names print as they are written, in
Latin with every accent, Cyrillic, Greek, and Arabic script with the Persian letters,
joined (arabic-reshaper) and right to left (`core.pdf.direction`). A letter the font
lacks prints without its accent, or as '?'. A paper speaks the active language: in
Persian its digits are Persian (never in an address or a player's code) and it is laid
out right to left. A QR code (made with segno) is drawn as vector squares, sharp at
any size.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from xml.sax.saxutils import escape

import arabic_reshaper
import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language
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
from core.pdf.direction import (
    RIGHT_TO_LEFT,
    MirroredTable,
    paper_direction,
    right_to_left,
    seen,
)
from core.site.selectors import site_url
from core.words import translated
from tournaments.models import Event, Round

PAPER = {"letter": letter, "a4": A4}
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
FONTS = Path(__file__).resolve().parents[1] / "fonts"
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
# The digits a language writes, where they are not 0-9 (as its pages show them).
DIGITS = {"fa": str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")}
# Zero-width letters of one direction: after an address in a right-to-left line (so its
# closing slash stays at its end), around a name written the other way (`isolated`).
LEFT_TO_RIGHT_MARK = "\u200e"
RIGHT_TO_LEFT_MARK = "\u200f"


def as_read(text: str, *, as_written: bool = False) -> str:
    """Text in the order it is read, as the font draws it: words the game said in the
    active language, Arabic script joined, the language's digits (unless `as_written`:
    an address, a code), a letter the font lacks without its accent, or '?'."""
    text = translated(text)
    if not as_written:
        digits = DIGITS.get((get_language() or "").split("-")[0])
        if digits:
            text = text.translate(digits)
    if RIGHT_TO_LEFT.search(text):
        text = arabic_reshaper.reshape(text)
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


def printable(text: str, *, as_written: bool = False) -> str:
    """Text as drawn straight onto the page (a line, or lines apart): `as_read`, each
    line in the order it is seen in the paper's direction."""
    direction = paper_direction()
    lines = as_read(text, as_written=as_written).split("\n")
    return "\n".join(seen(line, direction) for line in lines)


def markup(text: str, *, as_written: bool = False) -> str:
    """Text for a Paragraph (which reads a little XML, and puts it in the order it is
    seen line by line): `as_read`, made safe."""
    return escape(as_read(text, as_written=as_written))


def markup_keeping(text: str, kept: str) -> str:
    """`markup(text)`, where `kept` (an address) is in it as written."""
    before, found, after = text.partition(kept)
    if not found:
        return markup(text)
    mark = LEFT_TO_RIGHT_MARK if right_to_left() else ""
    return markup(before) + markup(kept, as_written=True) + mark + markup(after)


class Table(MirroredTable):
    """A table of the paper (`core.pdf.direction.MirroredTable`); a cell of plain text
    or a number drawn as `printable`."""

    def cell(self, value):
        if isinstance(value, (str, int, float)):
            return printable(str(value))
        return value


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


def fitting(
    texts: Iterable[str],
    style: ParagraphStyle,
    least: float,
    *,
    whole: bool = False,
    padding: float = 12,
) -> float:
    """A column's width: `least`, or wider where a word of its texts (or a whole text,
    `whole`) would not fit in `style` with the cell's padding: a heading in a language
    of longer words."""
    parts = [p for text in texts for p in ([as_read(text)] if whole else as_read(text).split())]
    widest = max(
        (pdfmetrics.stringWidth(p, style.fontName, style.fontSize) for p in parts), default=0
    )
    return max(least, widest + padding)


def isolated(text: str) -> str:
    """A name or a venue among other words: where it holds letters written the other
    way than the paper's, marked on both sides with the paper's direction, so what comes
    next (a date, a number) is not drawn into its direction."""
    if right_to_left():
        if any(unicodedata.bidirectional(char) == "L" for char in text):
            return f"{RIGHT_TO_LEFT_MARK}{text}{RIGHT_TO_LEFT_MARK}"
    elif RIGHT_TO_LEFT.search(text):
        return f"{LEFT_TO_RIGHT_MARK}{text}{LEFT_TO_RIGHT_MARK}"
    return text


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
        title=title,
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
        if right_to_left():
            canvas.drawString(MARGIN, MARGIN / 2, text)
        else:
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

"""Printable PDFs: a round's table cards and score sheets, and an event's results.

Drawn with ReportLab in its built-in Helvetica, so nothing is downloaded or embedded;
a name with a letter that font lacks is printed without its accent. The QR code on a
score sheet (made with segno) is drawn as vector squares, sharp at any size, and leads
to the table's public page.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from xml.sax.saxutils import escape

import segno
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    KeepInFrame,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from scoring.rulesets import get_ruleset
from tournaments.exports import standings_table
from tournaments.models import Event, Round, Seat
from tournaments.models import Table as GameTable

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


def default_base_url() -> str:
    """Where the public site lives, for PDFs made outside a request (commands)."""
    return (getattr(settings, "SITE_URL", "") or DEFAULT_BASE_URL).rstrip("/")


def table_path(event: Event, round_number: int, table_number: int) -> str:
    kwargs = {"slug": event.slug, "number": round_number, "table": table_number}
    try:
        return reverse("public-table", kwargs=kwargs)
    except NoReverseMatch:
        return f"/events/{event.slug}/rounds/{round_number}/tables/{table_number}/"


def table_url(base_url: str, event: Event, round_number: int, table_number: int) -> str:
    return base_url.rstrip("/") + table_path(event, round_number, table_number)


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


@dataclass(frozen=True)
class RoundTables:
    event: Event
    round: Round
    tables: list[tuple[GameTable, list[Seat]]]


def round_tables(event: Event, round_: Round) -> RoundTables:
    """The round's tables and their seats in order, with each seat's player: 2 queries."""
    seats: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(round=round_)
        .select_related("entry__player")
        .order_by("table_id", "position")
    ):
        seats.setdefault(seat.table_id, []).append(seat)
    tables = list(GameTable.objects.filter(round=round_).order_by("number"))
    return RoundTables(event=event, round=round_, tables=[(t, seats.get(t.pk, [])) for t in tables])


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


# --- table cards -------------------------------------------------------------------


def table_cards_pdf(*, event: Event, round_: Round, paper: str | None = None) -> bytes:
    """One card per table to stand on it: the table number, the players in seat order
    (clockwise) and who deals first. Each card fits its page, whatever the table's size."""
    data = round_tables(event, round_)
    pagesize = landscape(paper_size(paper))
    doc, buffer, on_page = document(
        f"{event.name}: round {round_.number} table cards",
        pagesize,
        footer=f"{event.name} - round {round_.number} - table cards",
    )
    width = pagesize[0] - 2 * MARGIN
    height = pagesize[1] - 2 * MARGIN - 6 * mm
    story: list[Flowable] = []
    for index, (table, seats) in enumerate(data.tables):
        if index:
            story.append(PageBreak())
        card = table_card(event, round_, table, seats, width)
        story.append(KeepInFrame(width, height, card, mode="shrink"))
    if not data.tables:
        story.append(Paragraph(f"Round {round_.number} has no tables yet.", HEADING))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


CARD_BIG = style("big", size=88, font=BOLD, alignment=TA_CENTER, textColor=GREEN, leading=96)
CARD_LABEL = style("label", size=18, alignment=TA_CENTER, leading=22)
CARD_SEAT = style("seat", size=20, leading=24)
CARD_SEAT_BOLD = style("seatbold", size=20, font=BOLD, leading=24)
CARD_HINT = style("hint", size=11, alignment=TA_CENTER)


def table_card(
    event: Event, round_: Round, table: GameTable, seats: list[Seat], width: float
) -> list[Flowable]:
    card: list[Flowable] = [Paragraph(markup(f"{event.name} - Round {round_.number}"), CARD_LABEL)]
    note = draft_note(round_)
    if note:
        card.append(Paragraph(f"<b>{markup(note)}</b>", CARD_LABEL))
    card += [Spacer(1, 2 * mm), Paragraph(f"Table {table.number}", CARD_BIG), Spacer(1, 6 * mm)]
    rows = []
    for seat in seats:
        player = seat.entry.player
        details = " - ".join(x for x in (player.club, str(player.country.name or "")) if x)
        text = markup(player.name)
        if details:
            text += f'<br/><font name="{FONT}" size="12">{markup(details)}</font>'
        bold = CARD_SEAT_BOLD if seat.first_dealer else CARD_SEAT
        rows.append(
            [
                Paragraph(f"Seat {seat.position}", CARD_SEAT_BOLD),
                Paragraph(text, bold),
                Paragraph("deals first" if seat.first_dealer else "", CARD_SEAT_BOLD),
            ]
        )
    commands = [
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.5, colors.HexColor("#999999")),
        ("TOPPADDING", (0, 0), (-1, -1), 5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
    ]
    commands += [
        ("BACKGROUND", (0, i), (-1, i), colors.HexColor("#fff3c4"))
        for i, seat in enumerate(seats)
        if seat.first_dealer
    ]
    if rows:
        card.append(
            Table(
                rows,
                colWidths=[32 * mm, width - 32 * mm - 45 * mm, 45 * mm],
                style=TableStyle(commands),
            )
        )
    card += [
        Spacer(1, 5 * mm),
        Paragraph(
            "Seats are numbered clockwise. The first dealer deals hand 1; "
            "the deal then passes round the table.",
            CARD_HINT,
        ),
    ]
    return card


# --- score sheets ------------------------------------------------------------------


def score_sheets_pdf(
    *, event: Event, round_: Round, base_url: str, paper: str | None = None
) -> bytes:
    """One sheet per table: each hand's contract and cards dealt, an empty grid for the
    seats' scores, boxes for who went out, down and out and penalties, and a QR code to
    the table's public page."""
    data = round_tables(event, round_)
    ruleset = get_ruleset(event.ruleset)
    pagesize = paper_size(paper)
    width = pagesize[0] - 2 * MARGIN
    doc, buffer, on_page = document(
        f"{event.name}: round {round_.number} score sheets",
        pagesize,
        footer=f"{event.name} - round {round_.number} - score sheets",
    )
    story: list[Flowable] = []
    note = draft_note(round_)
    qr_size = 34 * mm
    for index, (table, seats) in enumerate(data.tables):
        if index:
            story.append(PageBreak())
        url = table_url(base_url, event, round_.number, table.number)
        heading = [
            Paragraph(markup(event.name), style("event", size=11)),
            Paragraph(f"Round {round_.number} - Table {table.number}", TITLE),
            Paragraph(
                markup(
                    f"{ruleset.name}: {ruleset.hand_count} hands. Lowest total wins. "
                    f"Over-call or false laydown: {event.director_penalty} points."
                ),
                BODY,
            ),
        ]
        if note:
            heading.append(Paragraph(f"<b>{markup(note)}</b>", BODY))
        qr_cell = [
            QRCode(url, qr_size),
            Paragraph(markup(url), style("url", size=6, alignment=TA_CENTER)),
        ]
        top = Table(
            [[heading, qr_cell]],
            colWidths=[width - qr_size - 4 * mm, qr_size + 4 * mm],
            style=[("VALIGN", (0, 0), (-1, -1), "TOP"), ("ALIGN", (1, 0), (1, 0), "CENTER")],
        )
        story.append(top)
        story.append(Spacer(1, 3 * mm))
        story.append(score_grid(ruleset, seats, width))
        story.append(Spacer(1, 3 * mm))
        story.append(Paragraph(sheet_notes(ruleset, event), SMALL))
        story.append(Spacer(1, 5 * mm))
        story.append(signatures(seats, width))
    if not data.tables:
        story.append(Paragraph(f"Round {round_.number} has no tables yet.", HEADING))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


HEAD = style("head", size=8, font=BOLD, splitLongWords=0)
SEAT_HEAD = style("seathead", size=8)


def sheet_notes(ruleset, event: Event) -> str:
    notes = ["Write each seat's card points; the player who went out scores 0."]
    if ruleset.down_and_out_allowed:
        notes.append(
            "Tick D&amp;O when the winner went down and out in one turn: "
            "the others' points count double."
        )
    kinds = "over-call, false laydown" + (", challenge" if ruleset.challenge_allowed else "")
    notes.append(f"Note penalties by seat and kind ({kinds}).")
    notes.append("A redeal: write R beside the hand and play it again.")
    return " ".join(notes)


def score_grid(ruleset, seats: list[Seat], width: float) -> Table:
    """The grid: hand, contract and cards dealt printed; a column per seat; who went out,
    down and out (where the ruleset has it) and penalties to fill in; a totals row."""
    down_and_out = ruleset.down_and_out_allowed
    lead = [9 * mm, 35 * mm, 11 * mm]
    tail = [11 * mm] + ([10 * mm] if down_and_out else []) + [23 * mm]
    seat_width = (width - sum(lead) - sum(tail)) / max(len(seats), 1)
    header = [
        Paragraph("Hand", HEAD),
        Paragraph("Contract", HEAD),
        Paragraph("Cards dealt", HEAD),
    ]
    for seat in seats:
        dealer = "<br/><i>deals first</i>" if seat.first_dealer else ""
        header.append(
            Paragraph(
                f"<b>Seat {seat.position}</b><br/>{markup(seat.entry.player.name)}{dealer}",
                SEAT_HEAD,
            )
        )
    header.append(Paragraph("Out (seat)", HEAD))
    if down_and_out:
        header.append(Paragraph("D&amp;O", HEAD))
    header.append(Paragraph("Penalties", HEAD))
    rows = [header]
    for spec in ruleset.hands:
        rows.append(
            [
                Paragraph(f"<b>{spec.number}</b>", CELL),
                Paragraph(markup(spec.contract), CELL),
                Paragraph(str(spec.cards_dealt), CELL),
                *[""] * len(seats),
                "",
                *([CheckBox(4 * mm)] if down_and_out else []),
                "",
            ]
        )
    rows.append([Paragraph("<b>Total</b>", CELL), "", "", *[""] * (len(seats) + len(tail))])
    last = len(rows) - 1
    first_seat, last_seat = 3, 3 + len(seats) - 1
    commands = [
        ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
        ("BOX", (0, 0), (-1, -1), 1.4, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8f3ee")),
        ("BACKGROUND", (0, 1), (2, last), colors.HexColor("#f6f6f6")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("SPAN", (0, last), (2, last)),
        ("LINEABOVE", (0, last), (-1, last), 1.4, colors.black),
        ("BACKGROUND", (-len(tail), last), (-1, last), colors.HexColor("#f6f6f6")),
    ]
    if down_and_out:
        commands.append(("ALIGN", (-2, 1), (-2, -1), "CENTER"))
    if seats:
        commands.append(("LINEBEFORE", (first_seat, 0), (first_seat, -1), 1.4, colors.black))
        commands.append(("LINEAFTER", (last_seat, 0), (last_seat, -1), 1.4, colors.black))
    heights = [None] + [12.5 * mm] * (len(ruleset.hands) + 1)
    widths = [*lead, *[seat_width] * len(seats), *tail]
    return Table(rows, colWidths=widths, rowHeights=heights, style=commands, repeatRows=1)


class CheckBox(Flowable):
    """An empty square to tick."""

    def __init__(self, size: float):
        super().__init__()
        self.width = self.height = size

    def draw(self) -> None:
        self.canv.setLineWidth(0.8)
        self.canv.rect(0, 0, self.width, self.height, stroke=1, fill=0)


def signatures(seats: list[Seat], width: float) -> Flowable:
    """A line to sign for each player, their seat and name printed under it."""
    label = Paragraph("<b>Signatures</b>: each player agrees the totals.", CELL)
    count = max(len(seats), 1)
    gap = 5 * mm
    names = []
    widths = []
    for i, seat in enumerate(seats):
        if i:
            names.append("")
            widths.append(gap)
        names.append(Paragraph(f"Seat {seat.position}: {markup(seat.entry.player.name)}", SMALL))
        widths.append((width - gap * (count - 1)) / count)
    commands = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)]
    commands += [("LINEABOVE", (i, 1), (i, 1), 0.8, colors.black) for i in range(0, len(names), 2)]
    grid = Table([[""] * len(names), names], colWidths=widths, rowHeights=[12 * mm, None])
    grid.setStyle(TableStyle(commands))
    return KeepTogether([label, grid])


# --- results -----------------------------------------------------------------------


def results_pdf(*, event: Event, paper: str | None = None) -> bytes:
    """The event's standings after its latest round: final once the last planned round
    has closed, provisional before."""
    table = standings_table(event)
    pagesize = paper_size(paper)
    width = pagesize[0] - 2 * MARGIN
    doc, buffer, on_page = document(
        f"{event.name}: results", pagesize, footer=f"{event.name} - results"
    )
    story: list[Flowable] = [Paragraph(markup(event.name), TITLE)]
    details = [event.venue, event.starts_on.strftime("%d %B %Y") if event.starts_on else ""]
    details.append(get_ruleset(event.ruleset).name)
    details.append(event.get_format_display())
    story.append(Paragraph(markup(" - ".join(d for d in details if d)), BODY))
    story.append(Spacer(1, 4 * mm))
    if table.round is None:
        story.append(Paragraph("No results yet: no round has been scored.", HEADING))
    else:
        if table.final:
            title = "Final results"
        else:
            title = f"Standings after round {table.round.number} (provisional)"
        story.append(Paragraph(title, HEADING))
        story.append(results_grid(event, table.rows, width))
    stamp = timezone.localtime().strftime("%d %B %Y %H:%M")
    story.append(Spacer(1, 4 * mm))
    story.append(Paragraph(f"Printed {stamp}.", SMALL))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


HEAD_RIGHT = style("headright", size=8, font=BOLD, splitLongWords=0, alignment=TA_RIGHT)


def results_grid(event: Event, rows: list[dict], width: float) -> Table:
    table_points = event.format == Event.Format.TABLE_POINTS
    knockout = event.format == Event.Format.KNOCKOUT
    # (heading, width (None: what is left), a number)
    columns = [("Rank", 12 * mm, False), ("Player", None, False), ("Club", 48 * mm, False)]
    columns += [("Country", 17 * mm, False), ("Points", 16 * mm, True)]
    if table_points:
        columns.append(("Table points", 16 * mm, True))
    columns += [("Sets", 11 * mm, True), ("Hands won", 16 * mm, True)]
    if knockout:
        columns.append(("Status", 22 * mm, False))
    fixed = sum(w for _, w, _ in columns if w)
    widths = [w if w else width - fixed for _, w, _ in columns]
    data = [[Paragraph(name, HEAD_RIGHT if number else HEAD) for name, _, number in columns]]
    for row in rows:
        name = markup(row["player"])
        if row["status"] == "withdrawn":
            name += " <i>(withdrawn)</i>"
        line = [
            str(row["rank"]),
            Paragraph(name, CELL),
            Paragraph(markup(row["club"]), CELL),
            row["country"],
            str(row["points"]),
        ]
        if table_points:
            line.append(f"{float(row['table_points']):g}")
        line += [str(row["sets_played"]), str(row["hands_won"])]
        if knockout:
            line.append(row["status"])
        data.append(line)
    commands = [
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3f7f5")]),
    ]
    commands += [
        ("ALIGN", (i, 1), (i, -1), "RIGHT") for i, (_, _, number) in enumerate(columns) if number
    ]
    return Table(data, colWidths=widths, style=commands, repeatRows=1)

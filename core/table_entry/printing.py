"""Player slips: one per seated player, to hand out with the seating. Each has the
player's name, table and seat, their personal code for the round, and a QR code that
opens their table's entry page with the code filled in. Cut along the dashed lines.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer, TableStyle

from core.pdf import (
    BOLD,
    GREEN,
    HEADING,
    MARGIN,
    QRCode,
    Table,
    document,
    find_table_url,
    markup,
    markup_keeping,
    paper_size,
    style,
    table_entry_url,
)
from core.pdf.direction import Paragraph, Verbatim
from core.table_entry.codes import shown
from core.table_entry.seats import round_codes
from tournaments.models import Event, Round

COLUMNS, ROWS = 2, 4  # slips on a page
SLIP_EVENT = style("slipevent", size=8, textColor=colors.HexColor("#444444"))
SLIP_PLACE = style("slipplace", size=12, font=BOLD, textColor=GREEN)
SLIP_NAME = style("slipname", size=12, font=BOLD, leading=14, splitLongWords=0)
SLIP_LABEL = style("sliplabel", size=8)
SLIP_CODE = style("slipcode", size=20, font="Courier-Bold", leading=24)
SLIP_HINT = style("sliphint", size=7, leading=8.5, textColor=colors.HexColor("#444444"))


def player_slips_pdf(
    *, event: Event, round_: Round, base_url: str, paper: str | None = None
) -> bytes:
    """A slip per seated player, table by table and seat by seat, eight to a page."""
    tables = round_codes(event, round_.number)
    pagesize = paper_size(paper)
    doc, buffer, on_page = document(
        _("%(event)s: round %(round)s player slips")
        % {"event": event.name, "round": round_.number},
        pagesize,
        footer=_("%(event)s - round %(round)s - player slips (cut along the dashes)")
        % {"event": event.name, "round": round_.number},
    )
    width = (pagesize[0] - 2 * MARGIN) / COLUMNS
    height = (pagesize[1] - 2 * MARGIN - 8 * mm) / ROWS
    slips = [
        slip(event, round_, table.number, seat, base_url, width, height)
        for table in tables
        for seat in table.seats
        if seat.code
    ]
    story: list[Flowable] = []
    if not slips:
        story.append(
            Paragraph(
                markup(
                    _(
                        "Round %(round)s is not published yet: the players' codes are given "
                        "when it is."
                    )
                    % {"round": round_.number}
                ),
                HEADING,
            )
        )
    for start in range(0, len(slips), COLUMNS * ROWS):
        page = slips[start : start + COLUMNS * ROWS]
        rows = [page[i : i + COLUMNS] for i in range(0, len(page), COLUMNS)]
        rows[-1] += [""] * (COLUMNS - len(rows[-1]))
        grid = Table(
            rows,
            colWidths=[width] * COLUMNS,
            rowHeights=[height] * len(rows),
            style=TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#888888"), None, (3, 3)),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ]
            ),
        )
        story += [grid, Spacer(1, 1)]
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def slip_hint(event: Event, typed: str) -> str:
    """What the code is for at this event: entering the table's hands, or (where the
    directors enter them) finding the table and following its sheet."""
    if event.table_entry == Event.TableEntry.PLAYERS:
        return _(
            "Scan the QR code to enter your table's hands; another player at your table "
            "confirms each one. Or type the code at %(address)s. Keep it to yourself."
        ) % {"address": typed}
    return _(
        "The directors enter the hands at this event: scan the QR code to follow your "
        "table's sheet live, or type the code at %(address)s to find your table."
    ) % {"address": typed}


def slip(
    event: Event, round_: Round, table: int, seat, base_url: str, width: float, height: float
) -> Table:
    qr_size = min(28 * mm, height - 8 * mm)
    url = table_entry_url(base_url, event, round_.number, table, seat.code)
    typed = find_table_url(base_url, event)
    text = [
        Paragraph(
            markup(
                _("%(event)s · Round %(round)s") % {"event": event.name, "round": round_.number}
            ),
            SLIP_EVENT,
        ),
        Paragraph(
            markup(_("Table %(table)s · Seat %(seat)s") % {"table": table, "seat": seat.seat}),
            SLIP_PLACE,
        ),
        Spacer(1, 1 * mm),
        Paragraph(markup(seat.name), SLIP_NAME),
        Spacer(1, 1.5 * mm),
        Paragraph(markup(_("Your code for this round")), SLIP_LABEL),
        Verbatim(markup(shown(seat.code), as_written=True), SLIP_CODE),
        Paragraph(markup_keeping(slip_hint(event, typed), typed), SLIP_HINT),
    ]
    inner = Table(
        [[text, QRCode(url, qr_size)]],
        colWidths=[width - qr_size - 6 * mm, qr_size + 4 * mm],
        style=[
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (0, 0), 4 * mm),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2 * mm),
        ],
    )
    return inner

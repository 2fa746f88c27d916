"""A round's "find your table" list: every seated player A to Z with their table and
seat, to pin up by the door (the projector shows the same list a page at a time)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from core.entries.selectors import namesakes_of
from core.pdf import (
    BODY,
    BOLD,
    CELL,
    FONT,
    HEAD,
    MARGIN,
    TITLE,
    Table,
    document,
    draft_note,
    markup,
    paper_size,
)
from core.pdf.direction import Paragraph
from game.collation import sort_key
from tournaments.models import Event, Round, Seat


def seated_a_to_z(round_: Round) -> list[tuple[str, str, int, int]]:
    """(name, club, table, seat) of every player seated in the round, A to Z, namesakes
    told apart as every list of the event shows them: 2 queries."""
    seats = Seat.objects.filter(round=round_).select_related("entry__player", "table")
    names = namesakes_of(round_.event_id)
    rows = [
        (
            names.get(s.entry.player_id, s.entry.player.name),
            s.entry.player.club,
            s.table.number,
            s.position,
        )
        for s in seats
    ]
    return sorted(rows, key=lambda r: (sort_key(r[0]), r[2], r[3]))


def find_your_table_pdf(*, event: Event, round_: Round, paper: str | None = None) -> bytes:
    pagesize = paper_size(paper)
    width = pagesize[0] - 2 * MARGIN
    doc, buffer, on_page = document(
        _("%(event)s: round %(round)s, find your table")
        % {"event": event.name, "round": round_.number},
        pagesize,
        footer=_("%(event)s - round %(round)s - find your table")
        % {"event": event.name, "round": round_.number},
    )
    story: list[Flowable] = [
        Paragraph(
            markup(_("%(event)s: round %(round)s") % {"event": event.name, "round": round_.number}),
            TITLE,
        ),
        Paragraph(markup(_("Find your table: players A to Z")), BODY),
    ]
    note = draft_note(round_)
    if note:
        story.append(Paragraph(f"<b>{markup(note)}</b>", BODY))
    story.append(Spacer(1, 4 * mm))
    rows = seated_a_to_z(round_)
    if not rows:
        story.append(Paragraph(markup(_("Nobody is seated in this round yet.")), BODY))
    else:
        headings = (_("Player"), _("Club"), _("Table"), _("Seat"))
        data = [[Paragraph(markup(h), HEAD) for h in headings]]
        for name, club, table, seat in rows:
            data.append([Paragraph(markup(name), CELL), Paragraph(markup(club), CELL), table, seat])
        widths = [width - 48 * mm - 2 * 18 * mm, 48 * mm, 18 * mm, 18 * mm]
        commands = [
            ("FONT", (0, 0), (-1, -1), FONT, 11),
            ("FONT", (2, 1), (2, -1), BOLD, 13),
            ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("ALIGN", (2, 1), (-1, -1), "CENTER"),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3f7f5")]),
        ]
        story.append(Table(data, colWidths=widths, style=commands, repeatRows=1))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()

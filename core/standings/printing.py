"""An event's results: the standings after its latest round, final once the last
planned round has closed, provisional before."""

from __future__ import annotations

from collections.abc import Sequence

from django.template.defaultfilters import floatformat
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from core.pdf import (
    BODY,
    CELL,
    HEAD,
    HEAD_RIGHT,
    HEADING,
    MARGIN,
    TITLE,
    Table,
    document,
    fitting,
    grid_commands,
    isolated,
    markup,
    paper_size,
)
from core.pdf.direction import Paragraph
from core.standings.prizes import event_prize_winners
from core.standings.selectors import StandingRow, standings_after
from core.words import translated
from tournaments.models import Event

# --- results -----------------------------------------------------------------------


def results_pdf(*, event: Event, paper: str | None = None) -> bytes:
    """The event's standings after its latest round: final once the last planned round
    has closed, provisional before."""
    standings = standings_after(event)
    pagesize = paper_size(paper)
    width = pagesize[0] - 2 * MARGIN
    # The time printed goes in every page's footer: a line of its own after the grid
    # could fall alone onto a page of its own.
    stamp = formats.date_format(timezone.localtime(), "DATETIME_FORMAT")
    doc, buffer, on_page = document(
        _("%(event)s: results") % {"event": event.name},
        pagesize,
        footer=_("%(event)s - results - printed %(time)s") % {"event": event.name, "time": stamp},
    )
    story: list[Flowable] = [Paragraph(markup(event.name), TITLE)]
    details = [isolated(event.venue) if event.venue else ""]
    details.append(formats.date_format(event.starts_on) if event.starts_on else "")
    details.append(translated(event.rules.name))
    details.append(event.get_format_display())
    story.append(Paragraph(markup(" - ".join(d for d in details if d)), BODY))
    story.append(Spacer(1, 4 * mm))
    if standings.round is None:
        story.append(Paragraph(markup(_("No results yet: no round has been scored.")), HEADING))
    else:
        if standings.final:
            title = _("Final results")
        else:
            title = _("Standings after round %(round)s (provisional)") % {"round": standings.round}
        story.append(Paragraph(markup(title), HEADING))
        for notice in standings.notices:
            story.append(Paragraph(markup(notice), BODY))
        if standings.notices:
            story.append(Spacer(1, 2 * mm))
        story.append(results_grid(event, standings.rows, width))
        winners = event_prize_winners(event) if standings.final else []
        if winners:
            story.append(Spacer(1, 4 * mm))
            story.append(Paragraph(markup(_("Prizes")), HEADING))
            shown = {row.player.id: row.name for row in standings.rows}
            for winner in winners:
                name = shown.get(winner.player_id, winner.name)
                line = f"{winner.rank}. {isolated(name)}: {winner.text}"
                story.append(Paragraph(markup(line), BODY))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def results_grid(event: Event, rows: Sequence[StandingRow], width: float) -> Table:
    table_points = event.format == Event.Format.TABLE_POINTS
    knockout = event.format == Event.Format.KNOCKOUT
    # (heading, width (None: what is left), a number)
    columns = [(_("Rank"), 12 * mm, False), (_("Player"), None, False), (_("Club"), 48 * mm, False)]
    columns += [(_("Country"), 17 * mm, False), (_("Points"), 16 * mm, True)]
    if table_points:
        columns.append((_("Table points"), 16 * mm, True))
    columns += [(_("Sets"), 11 * mm, True), (_("Hands won"), 16 * mm, True)]
    if knockout:
        columns.append((_("Status"), 22 * mm, False))
    # A column as wide as its heading's longest word needs (Russian, Persian words).
    columns = [(name, w and fitting([name], HEAD, w), number) for name, w, number in columns]
    fixed = sum(w for _name, w, _number in columns if w)
    widths = [w if w else width - fixed for _name, w, _number in columns]
    data = [
        [
            Paragraph(markup(name), HEAD_RIGHT if number else HEAD)
            for name, _width, number in columns
        ]
    ]
    for row in rows:
        name = markup(row.name)
        if row.replaced_by is not None:
            name += " <i>(" + markup(row.replaced_text) + ")</i>"
        elif row.status == "withdrawn":
            name += " <i>(" + markup(_("withdrawn")) + ")</i>"
        if row.incomplete:
            incomplete = _("incomplete: %(sets)s") % {"sets": row.incomplete_text}
            name += "<br/><font size=7><i>" + markup(incomplete) + "</i></font>"
        if row.adjusted:
            name += "<br/><font size=7><i>" + markup(row.adjusted_text) + "</i></font>"
        if row.tie_note:
            name += "<br/><font size=7><i>" + markup(row.tie_note) + "</i></font>"
        # A no-show replaced before playing has no place, points or sets of their own.
        absent = row.did_not_play
        line = [
            "-" if absent else str(row.rank),
            Paragraph(name, CELL),
            Paragraph(markup(row.club), CELL),
            row.country,
            "-" if absent else str(row.points),
        ]
        if table_points:
            line.append("-" if absent else floatformat(row.table_points, "-2"))
        line += ["-", "-"] if absent else [str(row.sets_played), str(row.hands_won)]
        if knockout:
            line.append(row.status_text)
        data.append(line)
    commands = grid_commands()
    commands += [
        ("ALIGN", (i, 1), (i, -1), "RIGHT")
        for i, (_name, _width, number) in enumerate(columns)
        if number
    ]
    return Table(data, colWidths=widths, style=commands, repeatRows=1)

"""A series' standings on paper: its legs, each player's result in every leg (dropped
ones in brackets), the series points, the qualifying line and the prizes, with the
rules that decide them said in words, as the series page says them."""

from __future__ import annotations

from django.template.defaultfilters import floatformat
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from core.pdf import (
    BODY,
    CELL,
    GREEN,
    HEAD,
    HEAD_RIGHT,
    HEADING,
    MARGIN,
    SMALL,
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
from core.series import selectors as reads
from core.words import listing
from tournaments.models import Event, Series


def series_pdf(*, series: Series, paper: str | None = None) -> bytes:
    """The series standings as they stand now: 4 queries."""
    legs = reads.legs_of(series)
    listed = reads.leg_rows(legs, frozen=reads.qualification_frozen(series))
    rows = reads.series_standings(series)
    pagesize = paper_size(paper)
    width = pagesize[0] - 2 * MARGIN
    stamp = formats.date_format(timezone.localtime(), "DATETIME_FORMAT")
    doc, buffer, on_page = document(
        _("%(series)s: series standings") % {"series": series},
        pagesize,
        footer=_("%(series)s - series standings - printed %(time)s")
        % {"series": series, "time": stamp},
    )
    story: list[Flowable] = [Paragraph(markup(str(series)), TITLE)]
    story.append(Paragraph(markup(summary(series, len(legs))), BODY))
    story.append(Spacer(1, 4 * mm))
    story.append(Paragraph(markup(_("Legs")), HEADING))
    if legs:
        story.append(legs_grid(listed, width))
    else:
        story.append(Paragraph(markup(_("No legs yet.")), BODY))
    story.append(Spacer(1, 4 * mm))
    every_leg_final = bool(listed) and all(leg.scored for leg in listed)
    title = _("Series standings") if every_leg_final else _("Series standings so far")
    story.append(Paragraph(markup(title), HEADING))
    if rows:
        story.append(Paragraph(markup(scoring_rules(series)), SMALL))
        story.append(Spacer(1, 2 * mm))
        story.append(standings_grid(series, legs, rows, width))
    else:
        story.append(Paragraph(markup(_("No leg has finished yet.")), BODY))
    prize_table = reads.prize_table(series.prizes, series.prize_currency)
    if prize_table:
        story.append(Spacer(1, 4 * mm))
        story.append(Paragraph(markup(_("Series prizes")), HEADING))
        for prize in prize_table:
            story.append(Paragraph(markup(f"{prize.place}. {prize.text}"), BODY))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def summary(series: Series, legs: int) -> str:
    if series.best_of:
        counted = _("a player's best %(best)s count") % {"best": series.best_of}
    else:
        counted = _("every leg counts")
    if series.final_id:
        final = _("the top %(count)s go to the final: %(final)s") % {
            "count": series.qualifiers,
            "final": series.final.name,
        }
    else:
        final = _("the top %(count)s go to the final") % {"count": series.qualifiers}
    return ngettext(
        "%(count)s leg - %(counted)s - %(final)s",
        "%(count)s legs - %(counted)s - %(final)s",
        legs,
    ) % {"count": legs, "counted": counted, "final": final}


def scoring_rules(series: Series) -> str:
    scale = listing(series.points_scale)
    text = _("Series points by place in each leg: %(scale)s; places beyond score 0.") % {
        "scale": scale
    }
    if series.best_of:
        text += ngettext(
            " Results in brackets are dropped (not among a player's best %(best)s).",
            " Results in brackets are dropped (not among a player's best %(best)s).",
            series.best_of,
        ) % {"best": series.best_of}
    return _("%(scoring)s %(ties)s A place marked = was shared. Q: qualified for the final.") % {
        "scoring": text,
        "ties": reads.COUNTBACK_WORDS,
    }


def legs_grid(legs: list[reads.LegRow], width: float) -> Table:
    headings = (_("No."), _("Date"), _("Event"), _("Venue"), _("Results"))
    data = [[Paragraph(markup(h), HEAD) for h in headings]]
    for number, leg in enumerate(legs, start=1):
        event = leg.event
        data.append(
            [
                str(number),
                formats.date_format(event.starts_on) if event.starts_on else "",
                Paragraph(markup(event.name), CELL),
                Paragraph(markup(event.venue), CELL),
                Paragraph(markup(leg.words), CELL),
            ]
        )
    least = [10 * mm, 28 * mm, None, 50 * mm, 20 * mm]
    widths = [w and fitting([h], HEAD, w) for h, w in zip(headings, least, strict=True)]
    # A date is one line, however long the language writes it ("1 января 2027 г.").
    widths[1] = max(widths[1], fitting([row[1] for row in data[1:]], CELL, 0, whole=True))
    fixed = sum(w for w in widths if w)
    return Table(
        data,
        colWidths=[w if w else width - fixed for w in widths],
        style=grid_commands(),
        repeatRows=1,
    )


def result_text(result: dict | None) -> str:
    """A leg's cell: its series points (in brackets when dropped) and the place."""
    if result is None:
        return ""
    points = str(result["points"]) if result["counted"] else f"({result['points']})"
    shared = "=" if result.get("shared") else ""
    return f"{points} #{result['place']}{shared}"


def standings_grid(series: Series, legs: list[Event], rows: list, width: float) -> Table:
    """Rank, player, a column per leg (numbered as in the legs' list), points, prize;
    a rule under the last qualifier."""
    legs_head = [Paragraph(markup(str(i)), HEAD_RIGHT) for i in range(1, len(legs) + 1)]
    points_head = Paragraph(markup(_("Points")), HEAD_RIGHT)
    data = [
        [
            Paragraph(markup(_("Rank")), HEAD),
            Paragraph(markup(_("Player")), HEAD),
            *legs_head,
            points_head,
        ]
    ]
    data[0].append(Paragraph(markup(_("Prize")), HEAD))
    cut = None
    for index, row in enumerate(rows, start=1):
        cells = [result_text(result) for result in reads.results_by_leg(row, legs)]
        name = markup(isolated(row.player.name)) + (" <b>Q</b>" if row.qualified else "")
        prize = row.prize.text if row.prize else ""
        data.append(
            [
                str(row.rank),
                Paragraph(name, CELL),
                *cells,
                floatformat(row.points, "-2"),
                Paragraph(markup(prize), CELL),
            ]
        )
        if row.rank == series.qualifiers and series.qualifiers < len(rows):
            cut = index
    leg_width = min(16 * mm, (width - 12 * mm - 45 * mm - 16 * mm - 40 * mm) / max(len(legs), 1))
    rank, points = fitting([_("Rank")], HEAD, 12 * mm), fitting([_("Points")], HEAD, 16 * mm)
    widths = [rank, None, *([leg_width] * len(legs)), points, 40 * mm]
    fixed = sum(w for w in widths if w)
    commands = grid_commands()
    commands += [("ALIGN", (2, 1), (-2, -1), "RIGHT")]
    if cut is not None:
        commands.append(("LINEBELOW", (0, cut), (-1, cut), 1.2, GREEN))
    return Table(
        data,
        colWidths=[w if w else width - fixed for w in widths],
        style=commands,
        repeatRows=1,
    )

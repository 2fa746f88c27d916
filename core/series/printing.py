"""A series' standings on paper: its legs, each player's result in every leg (dropped
ones in brackets), the series points, the qualifying line and the prizes, with the
rules that decide them said in words, as the series page says them."""

from __future__ import annotations

from django.utils import formats, timezone
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

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
    document,
    grid_commands,
    markup,
    paper_size,
)
from core.series import selectors as reads
from game import series as game_series
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
        f"{series}: series standings",
        pagesize,
        footer=f"{series} - series standings - printed {stamp}",
    )
    story: list[Flowable] = [Paragraph(markup(str(series)), TITLE)]
    story.append(Paragraph(markup(summary(series, len(legs))), BODY))
    story.append(Spacer(1, 4 * mm))
    story.append(Paragraph("Legs", HEADING))
    if legs:
        story.append(legs_grid(listed, width))
    else:
        story.append(Paragraph("No legs yet.", BODY))
    story.append(Spacer(1, 4 * mm))
    every_leg_final = bool(listed) and all(leg.scored for leg in listed)
    title = "Series standings" if every_leg_final else "Series standings so far"
    story.append(Paragraph(title, HEADING))
    if rows:
        story.append(Paragraph(markup(scoring_rules(series)), SMALL))
        story.append(Spacer(1, 2 * mm))
        story.append(standings_grid(series, legs, rows, width))
    else:
        story.append(Paragraph("No leg has finished yet.", BODY))
    prize_table = reads.prize_table(series.prizes, series.prize_currency)
    if prize_table:
        story.append(Spacer(1, 4 * mm))
        story.append(Paragraph("Series prizes", HEADING))
        for prize in prize_table:
            story.append(Paragraph(markup(f"{prize.place}. {prize.text}"), BODY))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def summary(series: Series, legs: int) -> str:
    counted = f"a player's best {series.best_of} count" if series.best_of else "every leg counts"
    final = f": {series.final.name}" if series.final_id else ""
    return (
        f"{legs} leg{'' if legs == 1 else 's'} - {counted} - "
        f"the top {series.qualifiers} go to the final{final}"
    )


def scoring_rules(series: Series) -> str:
    scale = ", ".join(str(points) for points in series.points_scale)
    dropped = (
        f" Results in brackets are dropped (not among a player's best {series.best_of})."
        if series.best_of
        else ""
    )
    return (
        f"Series points by place in each leg: {scale}; places beyond score 0.{dropped} "
        f"{game_series.COUNTBACK_WORDS} A place marked = was shared. Q: qualified for the "
        "final."
    )


def legs_grid(legs: list[reads.LegRow], width: float) -> Table:
    data = [[Paragraph(h, HEAD) for h in ("No.", "Date", "Event", "Venue", "Results")]]
    for number, leg in enumerate(legs, start=1):
        event = leg.event
        data.append(
            [
                str(number),
                formats.date_format(event.starts_on) if event.starts_on else "",
                Paragraph(markup(event.name), CELL),
                Paragraph(markup(event.venue), CELL),
                leg.state,
            ]
        )
    widths = [10 * mm, 28 * mm, None, 50 * mm, 20 * mm]
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
    legs_head = [Paragraph(str(i), HEAD_RIGHT) for i in range(1, len(legs) + 1)]
    points_head = Paragraph("Points", HEAD_RIGHT)
    data = [[Paragraph("Rank", HEAD), Paragraph("Player", HEAD), *legs_head, points_head]]
    data[0].append(Paragraph("Prize", HEAD))
    cut = None
    for index, row in enumerate(rows, start=1):
        cells = [result_text(result) for result in reads.results_by_leg(row, legs)]
        name = markup(row.player.name) + (" <b>Q</b>" if row.qualified else "")
        prize = row.prize.text if row.prize else ""
        data.append(
            [
                str(row.rank),
                Paragraph(name, CELL),
                *cells,
                f"{row.points:f}".rstrip("0").rstrip("."),
                Paragraph(markup(prize), CELL),
            ]
        )
        if row.rank == series.qualifiers and series.qualifiers < len(rows):
            cut = index
    leg_width = min(16 * mm, (width - 12 * mm - 45 * mm - 16 * mm - 40 * mm) / max(len(legs), 1))
    widths = [12 * mm, None, *([leg_width] * len(legs)), 16 * mm, 40 * mm]
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

"""The public series page: the legs with their dates and venues, the series
leaderboard with counted and dropped results marked, the qualifying line, the prizes.
A fixed number of queries whatever the series' size."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from core import printing
from core.common import csv_bytes, plain_csv_asked
from core.series import selectors as reads
from core.standings import exports


@require_safe
@gzip_page
def series_page(request: HttpRequest, slug: str) -> HttpResponse:
    series = reads.series_for(request.user, slug)
    legs = reads.legs_of(series)
    rows = reads.series_standings(series)
    rows_of_legs = reads.leg_rows(legs, frozen=reads.qualification_frozen(series))
    for row in rows:
        row.cells = reads.results_by_leg(row, legs)
    context = {
        "series": series,
        "legs": rows_of_legs,
        "rows": rows,
        "final": series.final,
        "cut": reads.cut_after(rows),
        "series_over": reads.series_over(series, rows_of_legs),
        "countback_words": reads.COUNTBACK_WORDS,
        # Shown before any leg is scored.
        "prize_table": reads.prize_table(series.prizes, series.prize_currency),
    }
    return render(request, "public/series.html", context)


@require_safe
def series_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The series standings as CSV (for anyone who may see the series): each player's
    legs, counted or dropped, and their prize."""
    series = reads.series_for(request.user, slug)
    content = csv_bytes(exports.series_csv(series), plain=plain_csv_asked(request.GET))
    response = HttpResponse(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-series-standings.csv"'
    return response


@require_safe
def series_standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The series standings to print (for anyone who may see the series): the legs,
    each player's results with the dropped ones in brackets, the qualifying line and
    the prizes. `?paper=a4` for A4 (letter otherwise)."""
    series = reads.series_for(request.user, slug)
    pdf = printing.series_pdf(series=series, paper=printing.requested_paper(request))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{series.slug}-series-standings.pdf"'
    return response

"""A round's table cards (one per table, to stand on it) and score sheets (one per
table: the grid of hands and seats, and a QR code to the table's public page)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import landscape
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepInFrame, KeepTogether, PageBreak, Spacer, TableStyle

from core.entries.selectors import label_players, namesakes_of
from core.events.selectors import round_with_seating
from core.pdf import (
    BODY,
    BOLD,
    CELL,
    FONT,
    GREEN,
    HEAD,
    HEADING,
    MARGIN,
    SMALL,
    TITLE,
    CheckBox,
    QRCode,
    Table,
    document,
    draft_note,
    fitting,
    markup,
    paper_size,
    style,
    table_url,
)
from core.pdf.direction import Paragraph, Verbatim
from core.words import translated
from tournaments.models import Event, Round, Seat
from tournaments.models import Table as GameTable


def agreed_rules(event: Event) -> str:
    """What the event agreed, in a line of the score sheet's heading."""
    amount = event.director_penalty
    if event.overcall_penalty:
        text = _("Over-call or false laydown: %(points)s points.") % {"points": amount}
    else:
        text = _("False laydown: %(points)s points; an over-call is recorded, not charged.") % {
            "points": amount
        }
    if event.trinidad_doubling:
        text = _("%(rules)s Down and out doubles the others' cards.") % {"rules": text}
    return text


def round_tables(event: Event, round_: Round) -> list[tuple[GameTable, list[Seat]]]:
    """The round's tables in order, each with its seats in order, each player's name
    as the event shows it as `shown` (namesakes told apart): 4 queries."""
    seated = round_with_seating(event, round_.number)
    tables = [(table, list(table.seats.all())) for table in seated.tables.all()]
    players = [seat.entry.player for _, seats in tables for seat in seats]
    label_players(players, namesakes_of(event))
    return tables


# --- table cards -------------------------------------------------------------------


def table_cards_pdf(*, event: Event, round_: Round, paper: str | None = None) -> bytes:
    """One card per table to stand on it: the table number, the players in seat order
    (clockwise) and who deals first. Each card fits its page, whatever the table's size."""
    tables = round_tables(event, round_)
    pagesize = landscape(paper_size(paper))
    doc, buffer, on_page = document(
        _("%(event)s: round %(round)s table cards") % {"event": event.name, "round": round_.number},
        pagesize,
        footer=_("%(event)s - round %(round)s - table cards")
        % {"event": event.name, "round": round_.number},
    )
    width = pagesize[0] - 2 * MARGIN
    height = pagesize[1] - 2 * MARGIN - 6 * mm
    story: list[Flowable] = []
    for index, (table, seats) in enumerate(tables):
        if index:
            story.append(PageBreak())
        card = table_card(event, round_, table, seats, width)
        story.append(KeepInFrame(width, height, card, mode="shrink"))
    if not tables:
        story.append(Paragraph(no_tables_yet(round_), HEADING))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def no_tables_yet(round_: Round) -> str:
    return markup(_("Round %(round)s has no tables yet.") % {"round": round_.number})


CARD_BIG = style("big", size=88, font=BOLD, alignment=TA_CENTER, textColor=GREEN, leading=96)
CARD_LABEL = style("label", size=18, alignment=TA_CENTER, leading=22)
CARD_SEAT = style("seat", size=20, leading=24)
CARD_SEAT_BOLD = style("seatbold", size=20, font=BOLD, leading=24)
CARD_HINT = style("hint", size=11, alignment=TA_CENTER)


def table_card(
    event: Event, round_: Round, table: GameTable, seats: list[Seat], width: float
) -> list[Flowable]:
    title = _("%(event)s - Round %(round)s") % {"event": event.name, "round": round_.number}
    card: list[Flowable] = [Paragraph(markup(title), CARD_LABEL)]
    note = draft_note(round_)
    if note:
        card.append(Paragraph(f"<b>{markup(note)}</b>", CARD_LABEL))
    number = markup(_("Table %(table)s") % {"table": table.number})
    card += [Spacer(1, 2 * mm), Paragraph(number, CARD_BIG), Spacer(1, 6 * mm)]
    rows = []
    for seat in seats:
        player = seat.entry.player
        details = " - ".join(x for x in (player.club, str(player.country.name or "")) if x)
        text = markup(player.shown)
        if details:
            text += f'<br/><font name="{FONT}" size="12">{markup(details)}</font>'
        bold = CARD_SEAT_BOLD if seat.first_dealer else CARD_SEAT
        rows.append(
            [
                Paragraph(markup(_("Seat %(seat)s") % {"seat": seat.position}), CARD_SEAT_BOLD),
                Paragraph(text, bold),
                Paragraph(markup(_("deals first")) if seat.first_dealer else "", CARD_SEAT_BOLD),
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
        labels = [_("Seat %(seat)s") % {"seat": seat.position} for seat in seats]
        place = fitting(labels, CARD_SEAT_BOLD, 32 * mm, whole=True)
        card.append(
            Table(
                rows,
                colWidths=[place, width - place - 45 * mm, 45 * mm],
                style=TableStyle(commands),
            )
        )
    card += [
        Spacer(1, 5 * mm),
        Paragraph(
            markup(
                _(
                    "Seats are numbered clockwise. The first dealer deals hand 1; "
                    "the deal then passes round the table."
                )
            ),
            CARD_HINT,
        ),
    ]
    return card


# --- score sheets ------------------------------------------------------------------

EVENT_LINE = style("event", size=11)
URL = style("url", size=6, alignment=TA_CENTER)


def score_sheets_pdf(
    *, event: Event, round_: Round, base_url: str, paper: str | None = None
) -> bytes:
    """One sheet per table: each hand's contract and cards dealt, an empty grid for the
    seats' scores, boxes for who went out, down and out and penalties, and a QR code to
    the table's public page."""
    tables = round_tables(event, round_)
    ruleset = event.rules
    pagesize = paper_size(paper)
    width = pagesize[0] - 2 * MARGIN
    doc, buffer, on_page = document(
        _("%(event)s: round %(round)s score sheets")
        % {"event": event.name, "round": round_.number},
        pagesize,
        footer=_("%(event)s - round %(round)s - score sheets")
        % {"event": event.name, "round": round_.number},
    )
    story: list[Flowable] = []
    note = draft_note(round_)
    qr_size = 34 * mm
    for index, (table, seats) in enumerate(tables):
        if index:
            story.append(PageBreak())
        url = table_url(base_url, event, round_.number, table.number)
        heading = [
            Paragraph(markup(event.name), EVENT_LINE),
            Paragraph(
                markup(
                    _("Round %(round)s - Table %(table)s")
                    % {"round": round_.number, "table": table.number}
                ),
                TITLE,
            ),
            Paragraph(
                markup(
                    ngettext(
                        "%(ruleset)s: %(count)s hands. Lowest total wins. %(rules)s",
                        "%(ruleset)s: %(count)s hands. Lowest total wins. %(rules)s",
                        ruleset.hand_count,
                    )
                    % {
                        "ruleset": translated(ruleset.name),
                        "count": ruleset.hand_count,
                        "rules": agreed_rules(event),
                    }
                ),
                BODY,
            ),
        ]
        if note:
            heading.append(Paragraph(f"<b>{markup(note)}</b>", BODY))
        qr_cell = [
            QRCode(url, qr_size),
            Verbatim(markup(url, as_written=True), URL),
        ]
        top = Table(
            [[heading, qr_cell]],
            colWidths=[width - qr_size - 4 * mm, qr_size + 4 * mm],
            style=[("VALIGN", (0, 0), (-1, -1), "TOP"), ("ALIGN", (1, 0), (1, 0), "CENTER")],
        )
        story.append(top)
        story.append(Spacer(1, 3 * mm))
        story.append(score_grid(ruleset, seats, width, doubles=event.table_rules.doubles(ruleset)))
        story.append(Spacer(1, 3 * mm))
        story.append(Paragraph(sheet_notes(ruleset, event), SMALL))
        story.append(Spacer(1, 5 * mm))
        story.append(signatures(seats, width))
    if not tables:
        story.append(Paragraph(no_tables_yet(round_), HEADING))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


SEAT_HEAD = style("seathead", size=8)


def sheet_notes(ruleset, event: Event) -> str:
    """The notes under the grid, as a Paragraph's text."""
    notes = [_("Write each seat's card points; the player who went out scores 0.")]
    if event.table_rules.doubles(ruleset):
        notes.append(
            _(
                "Tick D&O when the winner went down and out in one turn: "
                "the others' points count double."
            )
        )
    if ruleset.challenge_allowed:
        notes.append(_("Note penalties by seat and kind (over-call, false laydown, challenge)."))
    else:
        notes.append(_("Note penalties by seat and kind (over-call, false laydown)."))
    notes.append(_("A redeal: write R beside the hand and play it again."))
    return markup(" ".join(notes))


def score_grid(ruleset, seats: list[Seat], width: float, *, doubles: bool) -> Table:
    """The grid: hand, contract and cards dealt printed; a column per seat; who went out,
    down and out (where the event's agreed rules double on one: `doubles`) and penalties
    to fill in; a totals row."""
    down_and_out = doubles
    lead_words = [_("Hand"), _("Contract"), _("Cards dealt")]
    tail_words = [_("Out (seat)"), *([_("D&O")] if down_and_out else []), _("Penalties")]
    least = [9 * mm, 35 * mm, 11 * mm, 11 * mm, *([10 * mm] if down_and_out else []), 23 * mm]
    # A column as wide as its heading's longest word needs (Russian, Persian words).
    fixed = [
        fitting([words], HEAD, at_least, padding=6)
        for words, at_least in zip([*lead_words, *tail_words], least, strict=True)
    ]
    lead, tail = fixed[:3], fixed[3:]
    seat_width = (width - sum(lead) - sum(tail)) / max(len(seats), 1)
    header = [Paragraph(markup(words), HEAD) for words in lead_words]
    for seat in seats:
        dealer = f"<br/><i>{markup(_('deals first'))}</i>" if seat.first_dealer else ""
        place = markup(_("Seat %(seat)s") % {"seat": seat.position})
        header.append(
            Paragraph(
                f"<b>{place}</b><br/>{markup(seat.entry.player.shown)}{dealer}",
                SEAT_HEAD,
            )
        )
    header += [Paragraph(markup(words), HEAD) for words in tail_words]
    rows = [header]
    for spec in ruleset.hands:
        rows.append(
            [
                Paragraph(f"<b>{markup(str(spec.number))}</b>", CELL),
                Paragraph(markup(spec.contract), CELL),
                Paragraph(markup(str(spec.cards_dealt)), CELL),
                *[""] * len(seats),
                "",
                *([CheckBox(4 * mm)] if down_and_out else []),
                "",
            ]
        )
    total = Paragraph(f"<b>{markup(_('Total'))}</b>", CELL)
    rows.append([total, "", "", *[""] * (len(seats) + len(tail))])
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


def signatures(seats: list[Seat], width: float) -> Flowable:
    """A line to sign for each player, their seat and name printed under it."""
    label = Paragraph(
        markup(_("Signatures: each player agrees the totals.")).replace(
            markup(_("Signatures")), f"<b>{markup(_('Signatures'))}</b>", 1
        ),
        CELL,
    )
    count = max(len(seats), 1)
    gap = 5 * mm
    names = []
    widths = []
    for i, seat in enumerate(seats):
        if i:
            names.append("")
            widths.append(gap)
        names.append(
            Paragraph(
                markup(
                    _("Seat %(seat)s: %(name)s")
                    % {"seat": seat.position, "name": seat.entry.player.shown}
                ),
                SMALL,
            )
        )
        widths.append((width - gap * (count - 1)) / count)
    commands = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)]
    commands += [("LINEABOVE", (i, 1), (i, 1), 0.8, colors.black) for i in range(0, len(names), 2)]
    grid = Table(
        [[""] * len(names), names],
        colWidths=widths,
        rowHeights=[12 * mm, None],
        style=TableStyle(commands),
    )
    return KeepTogether([label, grid])

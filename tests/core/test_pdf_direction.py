"""Right-to-left text on paper (core.pdf.direction): a paragraph is broken into lines in
reading order and each line drawn in the order it is seen; a table of a right-to-left
paper runs from the right, once, even split across pages. Read back with PDFium, which
gives a right-to-left line in reading order."""

from __future__ import annotations

import io

import pypdfium2
from django.utils import translation
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import SimpleDocTemplate

from core.pdf import BODY, FONT, Table, markup, printable
from core.pdf.direction import MirroredTable, Paragraph, seen

PERSIAN = (
    "بازیکنی که بیرون رفته صفر می‌گیرد و امتیاز کارت‌های دیگران را بنویسید؛ "
    "اگر برنده در یک نوبت بازی و خروج کرد امتیاز دیگران دو برابر حساب می‌شود "
    "و جریمه‌ها را بر اساس صندلی و نوع آن‌ها بنویسید تا مدیر مسابقه آن‌ها را ثبت کند"
)


def lines_of(pdf: bytes) -> list[list[str]]:
    """Each page's lines of text, as PDFium reads them (a right-to-left line in reading
    order), its joined letters returned to the letters typed."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = []
        for page in document:
            textpage = page.get_textpage()
            text = textpage.get_text_range(0, textpage.count_chars())
            pages.append([line.strip() for line in text.split("\r\n") if line.strip()])
        return pages
    finally:
        document.close()


def built(story: list, width: float = 70 * mm) -> bytes:
    buffer = io.BytesIO()
    margin = (A4[0] - width) / 2
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=margin, rightMargin=margin)
    doc.build(story)
    return buffer.getvalue()


def test_a_line_is_put_in_the_order_it_is_seen_brackets_mirrored():
    # Drawn right to left, "(" is seen as ")" would be: the algorithm mirrors it back.
    assert seen("(موقت)", "R") == "(" + "موقت"[::-1] + ")"
    # A Persian name in an English line keeps its place; the English, its order.
    assert seen("Above علی (tied)", "L") == "Above " + "علی"[::-1] + " (tied)"
    assert seen("Łukasz Żółć", "R") == "Łukasz Żółć"


def test_a_wrapped_persian_paragraph_reads_from_its_first_line_down():
    with translation.override("fa"):
        pdf = built([Paragraph(markup(PERSIAN), BODY)])
    (lines,) = lines_of(pdf)
    assert len(lines) >= 4
    assert " ".join(lines).replace("\u200c", "") == PERSIAN.replace("\u200c", "")
    assert PERSIAN.startswith(lines[0])


def test_a_persian_paragraph_split_across_pages_reads_on_from_the_first_page():
    with translation.override("fa"):
        pdf = built([Paragraph(markup(" ".join([PERSIAN] * 40)), BODY)])
    pages = lines_of(pdf)
    assert len(pages) >= 2
    words = " ".join(line for page in pages for line in page).replace("\u200c", "").split()
    assert words == " ".join([PERSIAN] * 40).replace("\u200c", "").split()


def rows_from_the_right(pdf: bytes) -> list[list[str]]:
    """Each page's rows of characters, top down, each read from its right end (spaces
    left out): by where PDFium finds each character drawn."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = []
        for page in document:
            textpage = page.get_textpage()
            rows: dict[int, list[tuple[float, str]]] = {}
            for i in range(textpage.count_chars()):
                char = textpage.get_text_range(i, 1)
                if char.strip():
                    left, bottom, _right, _top = textpage.get_charbox(i, loose=True)
                    rows.setdefault(round(bottom), []).append((left, char))
            pages.append(
                [
                    "".join(c for _x, c in sorted(row, reverse=True))
                    for _y, row in sorted(rows.items(), reverse=True)
                ]
            )
        return pages
    finally:
        document.close()


def test_a_persian_papers_table_runs_from_the_right_on_every_page():
    rows = [["یک", "دو", "سه"]] + [["الف", "ب", "پ"]] * 150
    with translation.override("fa"):
        grid = Table(
            rows,
            colWidths=[30 * mm, 20 * mm, 20 * mm],
            repeatRows=1,
            style=[("FONT", (0, 0), (-1, -1), FONT, 9)],
        )
        pdf = built([grid])
    pages = rows_from_the_right(pdf)
    assert len(pages) >= 2
    for page in pages:
        # Read from the right, a row starts with its first column's cell.
        assert page[0] == "یکدوسه"
        assert set(page[1:]) == {"الفبپ"}


def test_a_tables_style_is_mirrored_with_its_columns():
    with translation.override("fa"):
        table = MirroredTable([["a", "b", "c", "d"]], colWidths=[10, 20, 30, 40])
        assert table.mirrored(("LINEBEFORE", (1, 0), (1, -1), 1)) == (
            "LINEAFTER",
            (2, 0),
            (2, -1),
            1,
        )
        assert table.mirrored(("ALIGN", (2, 1), (-1, -1), "RIGHT")) == (
            "ALIGN",
            (0, 1),
            (1, -1),
            "LEFT",
        )
        assert table.mirrored(("SPAN", (0, 3), (1, 3))) == ("SPAN", (2, 3), (3, 3))
    assert table._cellvalues == [["d", "c", "b", "a"]]
    assert table._colWidths == [40, 30, 20, 10]


def test_persian_digits_in_the_text_but_not_in_an_address_or_a_code():
    with translation.override("fa"):
        assert printable("Table 12") == "Table ۱۲"
        assert markup("http://127.0.0.1:8000/", as_written=True) == "http://127.0.0.1:8000/"
    with translation.override("ru"):
        assert printable("Стол 12") == "Стол 12"

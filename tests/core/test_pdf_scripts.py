"""Names print as they are written, in any of six scripts: every PDF a director prints
embeds a Unicode font, and the text read back from the PDF is each name exactly (a
right-to-left name is drawn joined, so it is read back in the letters' joined forms,
which NFKC returns to the letters typed; pypdf reads it back in reading order)."""

from __future__ import annotations

import io
import unicodedata

import pytest
from pypdf import PdfReader

from core import printing, services
from tests.fixtures import hand, make_event, make_round, named_entries

pytestmark = pytest.mark.django_db

NAMES = [
    "Łukasz Żółkiewski",  # Polish
    "Nguyễn Văn An",  # Vietnamese
    "Đorđe Petrović",  # Serbian (Latin)
    "Дмитрий Шостаков",  # Russian
    "Γιώργος Παπαδάκης",  # Greek
    "علی رضایی",  # Persian
    "مهسا کاظمی",  # Persian, with its own letters (ک, ی)
    "Şükrü Öztürk",  # Turkish
]


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def printed(name: str, text: str) -> bool:
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in name):
        return name in unicodedata.normalize("NFKC", text)  # the joined forms as typed
    return name in text


@pytest.fixture
def event():
    event = make_event(slug="world", name="World Open")
    entries = named_entries(event, NAMES)
    round_ = make_round(event, table_sizes=(4, 4), entries=entries)
    for table in round_.tables.all():
        for number in range(1, event.rules.hand_count + 1):
            services.record_hand(table=table, number=number, entry=hand(1, 4))
    services.close_round(round=round_)
    services.refresh_standings(event=event)
    return event


def test_every_name_prints_exactly_in_the_find_your_table_list_and_the_results(event):
    round_ = event.rounds.get()
    for pdf in (
        printing.find_your_table_pdf(event=event, round_=round_),
        printing.results_pdf(event=event),
        printing.table_cards_pdf(event=event, round_=round_),
    ):
        text = text_of(pdf)
        missing = [name for name in NAMES if not printed(name, text)]
        assert missing == []


def test_the_font_travels_with_the_pdf():
    """The font is embedded (a subset), so a computer without it prints the same."""
    event = make_event()
    round_ = make_round(event, table_sizes=(4,))
    reader = PdfReader(io.BytesIO(printing.table_cards_pdf(event=event, round_=round_)))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    descriptors = [fonts[key].get_object() for key in fonts]
    embedded = [
        f["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
        for f in descriptors
        if "/DescendantFonts" in f
    ] + [f["/FontDescriptor"].get_object() for f in descriptors if "/FontDescriptor" in f]
    assert embedded and all("/FontFile2" in d for d in embedded)
    assert any("DejaVuSans" in str(f.get("/BaseFont")) for f in descriptors)

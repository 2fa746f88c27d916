"""Which way a paper's text runs, and text put in the order it is seen.

ReportLab sets text left to right, as it is given. A paragraph is therefore given in
the order it is read (its Arabic letters already joined), broken into lines in that
order, and each line is put in the order it is seen only when it is drawn: the Unicode
bidirectional algorithm (python-bidi's own Python one, which also mirrors brackets) run
on the line, with the paper's direction as the paragraph's. So a wrapped Persian
paragraph reads from its first line down, and a Persian name in an English line (or an
English name in a Persian one) keeps its place.

A paper in a right-to-left language (Persian) is laid out as its pages are: text set at
the right, and every table's first column at the right; what is set at the right in a
left-to-right paper (numbers) is set at the left.
"""

from __future__ import annotations

import functools
import re
import weakref

from bidi import algorithm
from django.utils.translation import get_language_bidi
from reportlab import platypus
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.tables import TableStyle

# Letters written right to left (Hebrew, Arabic and their presentation forms).
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
# The zero-width (non-)joiners stay between the letters they join or part: the letters
# are joined already, and the algorithm would otherwise drop them (rule X9).
JOINERS = frozenset("\u200c\u200d")
MIRRORED_ALIGNMENT = {TA_LEFT: TA_RIGHT, TA_RIGHT: TA_LEFT}
MIRRORED_COMMANDS = {
    "LINEBEFORE": "LINEAFTER",
    "LINEAFTER": "LINEBEFORE",
    "LEFTPADDING": "RIGHTPADDING",
    "RIGHTPADDING": "LEFTPADDING",
}
MIRRORED_SIDES = {"LEFT": "RIGHT", "RIGHT": "LEFT"}


def right_to_left() -> bool:
    """Whether the paper being printed now (in the active language) runs right to left."""
    return get_language_bidi()


def paper_direction() -> str:
    """The direction of the paper's paragraphs, as python-bidi names it: "R" or "L"."""
    return "R" if right_to_left() else "L"


# A paper repeats its headings on every page. A line's order weighs about 75 bytes a
# character (4 KB a line of 60): 1,024 lines hold a few MB, 15 MB at the very most.
@functools.lru_cache(maxsize=1024)
def display_order(text: str, direction: str) -> tuple[tuple[str, int], ...]:
    """Each character of one line as it is seen, left to right, with its place in
    `text`; a bracket drawn right to left mirrored. Invisible controls are left out."""
    storage = algorithm.get_empty_storage()
    storage["base_level"] = 0 if direction == "L" else 1
    storage["base_dir"] = direction
    algorithm.get_embedding_levels(text, storage)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index
        if char["ch"] in JOINERS:
            char["type"] = "ON"
    algorithm.explicit_embed_and_overrides(storage)
    algorithm.resolve_weak_types(storage)
    algorithm.resolve_neutral_types(storage, False)
    algorithm.resolve_implicit_levels(storage, False)
    algorithm.reorder_resolved_levels(storage, False)
    algorithm.apply_mirroring(storage, False)
    return tuple((char["ch"], char["index"]) for char in storage["chars"])


def needs_order(text: str, direction: str) -> bool:
    return direction == "R" or bool(RIGHT_TO_LEFT.search(text))


def seen(line: str, direction: str) -> str:
    """One line of text in the order it is seen."""
    if not needs_order(line, direction):
        return line
    return "".join(char for char, _index in display_order(line, direction))


def seen_lines(para, direction: str):
    """A paragraph's lines, broken in reading order by ReportLab, each put in the order
    it is seen (a copy: the lines as read stay for splitting the paragraph)."""
    if para.kind == 0:
        lines = [
            (line[0], seen(" ".join(line[1]), direction).split(" "), *line[2:])
            for line in para.lines
        ]
    else:
        lines = [seen_fragments(line, direction) for line in para.lines]
    return para.clone(lines=lines)


def seen_fragments(line, direction: str):
    """A line of several styles (bold, smaller, ...) in the order it is seen: its
    characters reordered as one text, then cut again where the style changes."""
    pieces = [f for f in line.words if not hasattr(f, "cbDefn") and f.text]
    text = "".join(f.text for f in pieces)
    if not needs_order(text, direction):
        return line
    owner = [f for f in pieces for _char in f.text]
    runs: list[tuple[object, list[str]]] = []
    for char, index in display_order(text, direction):
        if runs and runs[-1][0] is owner[index]:
            runs[-1][1].append(char)
        else:
            runs.append((owner[index], [char]))
    if not runs:
        return line
    words = [fragment.clone(text="".join(chars)) for fragment, chars in runs]
    words += [f for f in line.words if hasattr(f, "cbDefn") or not f.text]
    return line.clone(words=words)


_MIRRORED_STYLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def mirrored_style(style: ParagraphStyle) -> ParagraphStyle:
    """The style for a right-to-left paper: set at the right what is set at the left, and
    the other way round (the same style, once made, for every paragraph of it)."""
    if getattr(style, "mirrored", False):
        return style
    if style not in _MIRRORED_STYLES:
        flipped = ParagraphStyle(f"{style.name}-rtl", parent=style)
        flipped.alignment = MIRRORED_ALIGNMENT.get(style.alignment, style.alignment)
        flipped.leftIndent, flipped.rightIndent = style.rightIndent, style.leftIndent
        flipped.mirrored = True
        _MIRRORED_STYLES[style] = flipped
    return _MIRRORED_STYLES[style]


class Paragraph(platypus.Paragraph):
    """A paragraph of the paper: given in reading order (see `core.pdf.markup`), drawn
    line by line in the order it is seen; in a right-to-left paper set at the right."""

    # The direction its lines are read in; None: the paper's.
    direction: str | None = None

    def __init__(self, text, style=None, *args, **kwargs):
        self.right_to_left = right_to_left()
        if self.right_to_left and style is not None:
            style = mirrored_style(style)
        super().__init__(text, style, *args, **kwargs)

    def drawPara(self, debug=0):
        as_read = self.blPara
        direction = self.direction or ("R" if self.right_to_left else "L")
        self.blPara = seen_lines(as_read, direction)
        try:
            return super().drawPara(debug)
        finally:
            self.blPara = as_read


class Verbatim(Paragraph):
    """Text read left to right in any paper, as it is written: an address, a code."""

    direction = "L"


class MirroredTable(platypus.Table):
    """A table of the paper: in a right-to-left paper its columns run from the right, its
    style said as for a left-to-right one (the first column is column 0, "LEFT" is the
    side it starts from) and mirrored here. `cell` may change a cell as it is given."""

    def __init__(self, data, colWidths=None, *args, style=None, normalizedData=0, **kwargs):
        self.right_to_left = right_to_left()
        if not normalizedData:  # not a part of a table split across pages: mirrored once
            data = [[self.cell(value) for value in row] for row in data]
            if self.right_to_left:
                data = [list(reversed(row)) for row in data]
                if isinstance(colWidths, (list, tuple)):
                    colWidths = list(reversed(colWidths))
                # ReportLab's default (text from the left) said outright, to be mirrored.
                options = style._opts if isinstance(style, TableStyle) else {}
                style = TableStyle(
                    [("ALIGN", (0, 0), (-1, -1), "LEFT"), *commands_of(style)], **options
                )
        super().__init__(
            data, colWidths, *args, style=style, normalizedData=normalizedData, **kwargs
        )

    def cell(self, value):
        return value

    def setStyle(self, tblstyle):
        if self.right_to_left:
            options = tblstyle._opts if isinstance(tblstyle, TableStyle) else {}
            tblstyle = TableStyle(
                [self.mirrored(command) for command in commands_of(tblstyle)], **options
            )
        super().setStyle(tblstyle)

    def mirrored(self, command: tuple) -> tuple:
        if len(command) < 3:
            return command
        name, (first, top), (last, bottom), *rest = command
        columns = self._ncols
        first, last = first % columns, last % columns
        if name in ("ALIGN", "HALIGN") and rest:
            rest[0] = MIRRORED_SIDES.get(str(rest[0]).upper(), rest[0])
        name = MIRRORED_COMMANDS.get(name, name)
        return (name, (columns - 1 - last, top), (columns - 1 - first, bottom), *rest)


def commands_of(style) -> list[tuple]:
    if style is None:
        return []
    if isinstance(style, TableStyle):
        return list(style.getCommands())
    return list(style)

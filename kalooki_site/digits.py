"""Persian digits: pages in Persian show ۰۱۲۳۴۵۶۷۸۹ in their text, and a form typed on a
Persian (or Arabic) phone keyboard is read as if typed in ASCII digits.

Only the text a reader sees changes: never a tag or its attributes (links, values of
inputs, data for the scripts), the inside of <script>, <style> or <textarea>, a
character reference (&#39;), nor an element that must be read as written: <code>,
<kbd>, <samp>, <pre> (players' codes, card notation, commands) and any element marked
translate="no".
"""

from __future__ import annotations

import re

PERSIAN = "۰۱۲۳۴۵۶۷۸۹"
ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩"
TO_PERSIAN = str.maketrans("0123456789", PERSIAN)
TO_ASCII = str.maketrans(PERSIAN + ARABIC_INDIC, "0123456789" * 2)

# Elements whose whole content is left as it is.
RAW = ("script", "style", "textarea")
VERBATIM = ("code", "kbd", "samp", "pre")
# HTML's void elements: no closing tag, so never a level of nesting.
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr"}
)

# A comment, a tag (its attributes may hold ">" only inside quotes), or text.
TOKEN = re.compile(
    r"<!--.*?-->|<![^>]*>|</?[A-Za-z][^\s/>]*(?:\"[^\"]*\"|'[^']*'|[^'\">])*>|[^<]+|<",
    re.DOTALL,
)
TAG_NAME = re.compile(r"</?([A-Za-z][^\s/>]*)")
NO_TRANSLATE = re.compile(r"""\stranslate\s*=\s*["']?no\b""", re.IGNORECASE)
REFERENCE = re.compile(r"&#?\w+;")
DIGIT = re.compile(r"[0-9]")


def persian_text(text: str) -> str:
    """ASCII digits as Persian ones, character references left whole."""
    if not DIGIT.search(text):
        return text
    parts = REFERENCE.split(text)
    references = REFERENCE.findall(text)
    out = [parts[0].translate(TO_PERSIAN)]
    for reference, part in zip(references, parts[1:], strict=True):
        out.append(reference)
        out.append(part.translate(TO_PERSIAN))
    return "".join(out)


# The fast way, for a page with no element marked translate="no": whole elements kept as
# written (and comments) set aside, then every run of digits outside a tag, and not in a
# character reference, changed in one pass.
KEPT_ELEMENT = re.compile(
    r"<!--.*?-->|<(script|style|textarea|code|kbd|samp|pre)\b[^>]*>.*?</\1\s*>",
    re.DOTALL | re.IGNORECASE,
)
TEXT_DIGITS = re.compile(r"&#?\w+;|[0-9]+(?![^<>]*>)")


def _in_persian(match: re.Match) -> str:
    found = match.group(0)
    return found if found.startswith("&") else found.translate(TO_PERSIAN)


def persian_digits(html: str) -> str:
    """The page with Persian digits in its text (see the module's docstring)."""
    if not DIGIT.search(html):
        return html
    if NO_TRANSLATE.search(html):
        return _walk(html)
    out: list[str] = []
    start = 0
    for kept in KEPT_ELEMENT.finditer(html):
        out.append(TEXT_DIGITS.sub(_in_persian, html[start : kept.start()]))
        out.append(kept.group(0))
        start = kept.end()
    out.append(TEXT_DIGITS.sub(_in_persian, html[start:]))
    return "".join(out)


def _walk(html: str) -> str:
    """Tag by tag, following nesting: for a page with elements marked translate="no"."""
    out: list[str] = []
    # While inside an element left as written: its name and how deep it nests.
    kept: str | None = None
    depth = 0
    raw: str | None = None
    for match in TOKEN.finditer(html):
        token = match.group(0)
        if token.startswith("<") and len(token) > 1 and not token.startswith("<!"):
            name = TAG_NAME.match(token).group(1).lower()
            closing = token.startswith("</")
            if raw is not None:
                if closing and name == raw:
                    raw = None
            elif kept is not None:
                if name == kept and name not in VOID and not token.endswith("/>"):
                    depth += -1 if closing else 1
                    if depth == 0:
                        kept = None
            elif not closing:
                if name in RAW:
                    raw = name
                elif name not in VOID and (name in VERBATIM or NO_TRANSLATE.search(token)):
                    kept, depth = name, 1
            out.append(token)
        elif raw is None and kept is None and not token.startswith("<!"):
            out.append(persian_text(token))
        else:
            out.append(token)
    return "".join(out)


def ascii_digits(text: str) -> str:
    """Persian and Arabic-Indic digits read as ASCII ones (۱۲ is 12)."""
    return text.translate(TO_ASCII)

"""The stored texts (`core.stored_texts`) worded in the language active now. What a
director or organiser typed is shown as typed, inside these words or on its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import stored_texts as st
from core.common import author_and_reason
from tournaments.models import DEFAULT_TIME_RULE

WORDS: dict[str, Callable[[dict[str, Any]], str]] = {
    st.TYPED: lambda v: v["text"],
    st.DEMO: lambda v: _("demo data"),
    st.RESTORED: lambda v: (
        (
            _("restored version %(version)s: %(reason)s")
            if v.get("reason")
            else _("restored version %(version)s")
        )
        % v
    ),
    st.PLAYERS: lambda v: (
        _("entered by seat %(seat)s (%(name)s), confirmed by seat %(by_seat)s (%(by_name)s)") % v
    ),
    st.ENTERED_VERSION: lambda v: _("the version entered by seat %(seat)s (%(name)s)") % v,
    st.DISPUTED_VERSION: lambda v: (
        _(
            "the version of seat %(by_seat)s (%(by_name)s), who disputed the entry of seat "
            "%(seat)s (%(name)s)"
        )
        % v
    ),
    st.ENTERED: lambda v: _("entered by seat %(seat)s (%(name)s)") % v,
    st.REPLACED: lambda v: _("replaced by seat %(seat)s (%(name)s)") % v,
    st.VERSION_GIVEN: lambda v: _("version given by seat %(seat)s (%(name)s)") % v,
    st.DISPUTED: lambda v: _("disputed by seat %(seat)s (%(name)s)") % v,
    st.OVERRULED: lambda v: _("overruled by a director's entry"),
    st.OVERRULED_DIRECTORS: lambda v: _("overruled: the directors enter the hands now"),
    st.SEATED: lambda v: _("seated"),
    st.FORCED: lambda v: (
        ngettext(
            "forced: %(count)s table with hands missing",
            "forced: %(count)s tables with hands missing",
            v["count"],
        )
        % v
    ),
    st.REOPENED: lambda v: (_("reopened: %(reason)s") if v.get("reason") else _("reopened")) % v,
    st.DISCARDED_REOPENED: lambda v: _("discarded: round %(round)s was reopened") % v,
    st.DISCARDED_FINAL: lambda v: _("discarded: the final was seeded again"),
    st.AT_FAULT: lambda v: _("at fault: %(reason)s") % v,
    st.NOT_AT_FAULT: lambda v: _("no longer at fault"),
    st.REPLACES: lambda v: _("%(name)s replaces %(replaced)s") % v,
    st.TOO_FEW_PLAYERS: lambda v: (
        ngettext(
            "%(least)s players are needed to seat a round; %(count)s is active",
            "%(least)s players are needed to seat a round; %(count)s are active",
            v["count"],
        )
        % v
    ),
    st.NO_SHOW: lambda v: _("no-show, replaced by %(name)s") % v,
    st.SUBSTITUTE: lambda v: _("substitute for %(name)s") % v,
    st.LEFT_FINAL: lambda v: _("left the final: no longer a qualifier"),
    st.RESULTS_CHANGED: lambda v: _("Round %(round)s reopened: %(reason)s") % v,
    st.ARCHIVE_REPLACED: lambda v: _("replaced by an imported archive"),
    st.LEFT_OUT: lambda v: _("left out of ratings and series: %(slug)s counts") % v,
    st.COUNTED: lambda v: (_("counted instead of %(slug)s") if v.get("slug") else _("counted")) % v,
    st.FINAL_COUNTED: lambda v: _("final: %(slug)s, counted instead") % v,
    st.FINAL_SEEDED: lambda v: _("final seeded: %(reason)s") % v,
}


def worded(text: str | None) -> str:
    """A stored text in the active language; any other text as it is ("" for none). A
    stored form this version does not know, or whose values do not fit its words, is
    shown as it is stored rather than not at all."""
    found = st.parsed(text)
    if found is None:
        return text or ""
    code, values = found
    try:
        return str(WORDS[code](values))
    except (KeyError, TypeError, ValueError):
        return text or ""


def reason_words(stored: str | None) -> str:
    """A history row's reason in the active language, an imported row's author named
    as the history keeps it ("alice (imported): restored version 2")."""
    author, reason = author_and_reason(stored)
    if author is None:
        return worded(stored)
    named = _("%(author)s (imported)") % {"author": author}
    if not reason:
        return named
    return _("%(author)s: %(reason)s") % {"author": named, "reason": worded(reason)}


def stored_time_rule(text: str | None) -> str | None:
    """An event's rule at time as it is stored: None (the default, worded for each
    reader) when it is the default's words in any of the site's languages, as a form
    showing the default and sent back unchanged gives it; else as written."""
    if text is None:
        return None
    tidy = " ".join(text.split())
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            if tidy == _(DEFAULT_TIME_RULE):
                return None
    return text

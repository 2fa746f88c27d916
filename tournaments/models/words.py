"""Labels the pages show that carry a number (a ruleset's hands and cards, the range of
a penalty): worded when shown, in the reader's language, like every other label."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import lazy
from django.utils.translation import gettext


def _said(message: str, values: Mapping[str, object]) -> str:
    return gettext(message) % values


# `said_lazy(gettext_noop("Jamaica (%(hands)s hands)"), {"hands": 9})`: the message is
# marked for translation by gettext_noop and translated each time it is shown.
said_lazy = lazy(_said, str)

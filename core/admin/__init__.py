"""The Django admin: every model, for staff.

Hands, hand scores, penalties, entries, rounds, tables and seats are read-only here:
they change only through the director's pages and the API (`core.services`), which
check the rules, raise the hand's version, keep the history and rebuild the standings.
Each hand links to its table's sheet. An event's settings are saved through the same
services as the API's (`create_event`, `update_event`).

One module per kind of model; importing them registers their admins.
"""

from core.admin import circuits, derived, events, scores  # noqa: F401 (registers them)

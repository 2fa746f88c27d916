"""Errors raised by services: each names the fields at fault and why, in words a
director understands. Views and the API turn them into messages and status codes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.core.exceptions import ValidationError

from core.words import translated
from game.words import Joined, Said

NON_FIELD = "non_field_errors"


def in_reader_language(message: object) -> object:
    """The game's words (`game.words`) said in the active language; any other message
    (text, or words translated lazily) as it is."""
    return translated(message) if isinstance(message, (Said, Joined)) else message


class ServiceError(Exception):
    """A request that cannot be carried out; nothing was written. The game's words
    among its messages are said in the reader's language (`core.words`)."""

    status_code = 400

    def __init__(self, errors: Mapping[str, Sequence[str]] | str, *, field: str = NON_FIELD):
        if isinstance(errors, str):
            errors = {field: [errors]}
        self.errors: dict[str, list[str]] = {
            key: [in_reader_language(message) for message in msgs] for key, msgs in errors.items()
        }
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in self.errors.items()))

    @classmethod
    def from_validation_error(cls, error: ValidationError) -> ServiceError:
        if hasattr(error, "error_dict"):
            return cls({field: list(msgs) for field, msgs in error.message_dict.items()})
        return cls({NON_FIELD: list(error.messages)})


class InvalidInput(ServiceError):
    """Bad input: 400."""


class StateConflict(ServiceError):
    """The request is valid but the object's state forbids it (a locked table, a
    closed round): 409."""

    status_code = 409


class ProposalChanged(StateConflict):
    """A confirmation of an entry the table has entered again since its player looked
    at it: 409, nothing recorded; the player looks at the new entry first."""


class StaleVersion(ServiceError):
    """Someone changed the object since the client read it: 412."""

    status_code = 412


class HandRejected(InvalidInput):
    """A hand the rules engine refuses: 400, with every problem the engine found
    (`game.rules.Problem`: its code and seats let a page word it its own way), each
    said in the reader's language."""

    def __init__(self, invalid):
        self.problems = invalid.problems
        super().__init__(invalid.by_field())


class Forbidden(ServiceError):
    """The caller may not do this (a player's code that does not open this table, a
    player acting where only directors may): 403."""

    status_code = 403


class Missing(ServiceError):
    """What the request acts on does not exist, or is not the reader's to see (no such
    event, round, table or hand; no hand waiting for confirmation): 404. The core's one
    "not found": the pages answer it with their 404 page, the API with its 404."""

    status_code = 404

    @property
    def message(self) -> str:
        return " ".join(message for messages in self.errors.values() for message in messages)


class TooManyAttempts(ServiceError):
    """Too many wrong tries from one client: 429, and every try is refused until
    `retry_after` seconds have passed."""

    status_code = 429

    def __init__(self, errors, *, field: str = NON_FIELD, retry_after: int = 60):
        self.retry_after = retry_after
        super().__init__(errors, field=field)


class Busy(ServiceError):
    """Another request holds what this one must change for longer than a request waits
    (`core.locks`): 503, nothing written. It is a moment's wait, not a refusal: trying
    again after `retry_after` seconds should find it free."""

    status_code = 503

    def __init__(self, errors, *, field: str = NON_FIELD, retry_after: int = 2):
        self.retry_after = retry_after
        super().__init__(errors, field=field)


def with_retry_after(response, error: ServiceError):
    """`response` (a page answering `error`), telling the client when to try again when
    the refusal passes by itself (too many attempts, a busy table)."""
    retry_after = getattr(error, "retry_after", None)
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response

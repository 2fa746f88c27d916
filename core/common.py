"""What every service shares: recording who changed a row, and the model checks as a
service error."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError

from core.errors import InvalidInput


def with_history_user(obj: Any, user: AbstractBaseUser | None, reason: str | None = None) -> Any:
    """Tell django-simple-history who makes the next change to `obj` (and, for a change
    no signed-in user makes, such as players confirming a hand, why)."""
    obj._history_user = user if user is not None and user.is_authenticated else None
    if reason is not None:
        obj._change_reason = reason
    return obj


def full_clean_or_raise(obj: Any, *, exclude: list[str] | None = None) -> None:
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as error:
        raise InvalidInput.from_validation_error(error) from error

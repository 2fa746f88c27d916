from __future__ import annotations

import pytest

from tests.fixtures import make_world
from tests.html import signed_in


@pytest.fixture
def w():
    """Round 1 of alice's event published: two tables of four (`make_world`)."""
    return make_world()


@pytest.fixture
def director(w):
    """A client signed in as alice, the event's director."""
    return signed_in(w.alice)

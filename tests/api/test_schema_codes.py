"""Every status code the API answers is declared in its OpenAPI schema: 22 codes (400,
409, 412) used to be missing."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def operations():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (path, method, set(operation["responses"]))
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    ]


def test_every_operation_declares_the_errors_any_request_can_get(operations):
    for path, method, codes in operations:
        assert {"400", "401", "404", "406", "429"} <= codes, (method, path)


def test_every_write_declares_refusals_and_conflicts(operations):
    writes = [(p, m, c) for p, m, c in operations if m in ("post", "put", "patch", "delete")]
    assert len(writes) >= 15
    for path, method, codes in writes:
        assert {"403", "409", "415"} <= codes, (method, path)


def test_the_hand_declares_its_stale_version(operations):
    hand = "/api/v1/events/{slug}/rounds/{number}/tables/{table}/hands/{hand}/"
    for path, method, codes in operations:
        if path == hand and method in ("put", "delete"):
            assert "412" in codes

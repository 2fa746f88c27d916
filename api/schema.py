"""The status codes every operation can answer, declared in the OpenAPI schema beside
the ones each view describes (a drf-spectacular postprocessing hook), so a client
learns of every answer it may get."""

from __future__ import annotations

ERROR = {"$ref": "#/components/schemas/Error"}
ERROR_SCHEMA = {
    "type": "object",
    "description": "The fields at fault (or detail / non_field_errors), each with its reasons.",
    "additionalProperties": {
        "oneOf": [
            {"type": "array", "items": {"type": "string"}},
            {"type": "string"},
            {"type": "object", "description": "the errors of each item of a list, by index"},
        ]
    },
}
WHY = {
    "400": "invalid input: the fields at fault, each with its reasons; nothing was written",
    "401": "not signed in, or a wrong token",
    "403": "signed in, but not allowed to change this",
    "404": "no such object (or one the reader may not see)",
    "406": "the Accept header asks for a format the API does not give",
    "409": "valid, but the object's state forbids it (a locked table, a closed round)",
    "412": "the If-Match version is stale: someone changed it meanwhile; nothing was written",
    "415": "the body is not JSON",
    "422": "the site refuses a change the venue published (refused.seq, refused.reason); "
    "nothing of the batch was applied",
    "429": "too many requests (or too many wrong tokens) from this client; retry later",
}
# The venue's publisher's own endpoints, called with the publishing link.
PUBLISHING = "/api/v1/publishing/"
LINK_REFUSED = "the publishing link opens nothing here (mistyped, or revoked)"
EVERY = ("400", "401", "404", "406", "429")
WRITES = ("403", "409", "415")
# Writes that take If-Match: the hand and its deletion.
CONDITIONAL = ("412",)


def declare_error_responses(result, generator, request, public):
    """Add each status code the API may answer to every operation that lacks it."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            codes = list(EVERY)
            if method in ("post", "put", "patch", "delete"):
                codes += WRITES
            if path.endswith("/hands/{hand}/") and method in ("put", "delete"):
                codes += CONDITIONAL
            responses = operation.setdefault("responses", {})
            if path.startswith(PUBLISHING):
                responses.setdefault(
                    "403",
                    {
                        "description": LINK_REFUSED,
                        "content": {"application/json": {"schema": ERROR}},
                    },
                )
                if method == "post":
                    codes.append("422")
            for code in codes:
                responses.setdefault(
                    code,
                    {
                        "description": WHY[code],
                        "content": {"application/json": {"schema": ERROR}},
                    },
                )
    return result

"""TMDB's error envelope and the status codes Marquee sends, as data.

The body carries both `status_message` (TMDB's name) and `message` (the name some clients and our
seed interface read), with the same text. nginx renders the same bodies for the errors it answers
itself; control/services.py hands them to nginx/marquee.conf.j2 and the Lua gate through
`tmdb_error_body`.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson


@dataclass(frozen=True)
class TmdbError:
    http_status: int
    status_code: int
    message: str

    def body(self) -> bytes:
        return orjson.dumps(
            {"success": False, "status_code": self.status_code, "status_message": self.message, "message": self.message}
        )


# https://developer.themoviedb.org/docs/errors (copied in ../shared/reference/tmdb-endpoints.md)
INVALID_KEY = TmdbError(401, 7, "Invalid API key: You must be granted a valid key.")
SUSPENDED_KEY = TmdbError(401, 10, "Suspended API key: Access to your account has been suspended, contact TMDB.")
# TMDB has no plan expiry; the issue assigns 402 with status_code 36.
PLAN_EXPIRED = TmdbError(402, 36, "Your plan has expired: renew it to use this API key again.")
NOT_FOUND = TmdbError(404, 34, "The resource you requested could not be found.")
SERVICE_OFFLINE = TmdbError(503, 9, "Service offline: This service is temporarily offline, try again later.")
METHOD_NOT_ALLOWED = TmdbError(405, 42, "This request method is not supported for this resource.")
INTERNAL = TmdbError(500, 11, "Internal error: Something went wrong, contact TMDB.")
# What nginx refuses before any location answers (a NUL or a bad escape in the path, a request line
# or headers past its buffers, a body on a GET past client_max_body_size): TMDB's code 47 for input
# that is not valid, with the HTTP status nginx chose (431 for headers, as RFC 6585 names it).
BAD_REQUEST = TmdbError(400, 47, "The input is not valid.")
# `callback` that is not a JavaScript identifier path (marquee/jsonp.py): refused before any answer.
BAD_CALLBACK = TmdbError(
    400, 47, "The input is not valid: callback must be a JavaScript name, such as cb, jQuery36_17 or app.done."
)
BODY_TOO_LARGE = TmdbError(413, 47, "The input is not valid: the request body is too large.")
URI_TOO_LONG = TmdbError(414, 47, "The input is not valid: the request line is too long.")
HEADERS_TOO_LARGE = TmdbError(431, 47, "The input is not valid: the request headers are too large.")


def rate_limited(limit: int) -> TmdbError:
    return TmdbError(429, 25, f"Your request count is over the allowed limit of ({limit}).")


def tmdb_error_body(error: TmdbError) -> str:
    return error.body().decode()


def for_refusal(refusal: str, limit: int) -> TmdbError:
    """TMDB's envelope for a gate's refusal (edge/gate.py names them)."""
    if refusal == "rate_limited":
        return rate_limited(limit)
    return REFUSALS[refusal]


# fmt: off
REFUSALS = {"invalid_key": INVALID_KEY, "suspended_key": SUSPENDED_KEY, "plan_expired": PLAN_EXPIRED,
            "service_offline": SERVICE_OFFLINE}
# fmt: on
LIMIT_PLACEHOLDER = "@LIMIT@"  # nginx's gate writes the account's limit here


def refusal_answers() -> dict[str, dict[str, object]]:
    """Every refusal as nginx's gate answers it in this dialect: HTTP status and body (the 429's with
    LIMIT_PLACEHOLDER for the limit), handed to Lua by control/services.py."""
    answers: dict[str, dict[str, object]] = {
        name: {"status": e.http_status, "body": tmdb_error_body(e)} for name, e in REFUSALS.items()
    }
    limited = rate_limited(LIMIT_PLACEHOLDER)  # type: ignore[arg-type]
    answers["rate_limited"] = {"status": limited.http_status, "body": tmdb_error_body(limited)}
    answers["no_key"] = answers["invalid_key"]  # TMDB answers a missing key as an invalid one
    return answers

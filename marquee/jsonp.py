"""JSONP, as both dialects offer it: `callback=NAME` wraps a JSON answer as `NAME(...)`.

TMDB documents it for every /3 path ("JSON & JSONP"), OMDb for its one. A name is a JavaScript
identifier path (`cb`, `jQuery3600_17`, `app.handlers.got`), so the wrapper cannot carry script. At
/3 a name that is not one is refused with 400 (edge/errors.py BAD_CALLBACK); OMDb ignores it, as
OMDb does. nginx takes the pattern and the content type from here (control/services.py), and wraps
what it serves and what the edge answers (nginx/lua/marquee_docs.lua), so the edge never wraps /3.
"""

from __future__ import annotations

import re

CALLBACK = re.compile(r"[A-Za-z_$][A-Za-z0-9_$.]{0,63}")
# CALLBACK as the query string carries it, for nginx's map, which sees `$` as a client escaped it
# (%24; letters, digits, `_` and `.` are never escaped). tests/test_marquee_jsonp.py holds the two together.
RAW_CALLBACK = re.compile(r"(?:[A-Za-z_$]|%24)(?:[A-Za-z0-9_$.]|%24){0,63}")
CONTENT_TYPE = "text/javascript; charset=utf-8"


def wrap(data: bytes, callback: str) -> bytes:
    return callback.encode() + b"(" + data + b")"

"""marquee/jsonp.py: the name rule nginx applies to the raw query string says what the rule says of
the decoded name, for names clients send and names that could carry script."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from marquee import jsonp

# fmt: off
NAMES = ["cb", "jQuery36005524_1700000000", "app.handlers.got$", "$", "_x", "a" * 64, "a" * 65, "alert(1)", "1abc",
         "a b", "a-b", "cb;", "<script>", "", "é", "a%", "x.y.z", "$.ajax"]
# fmt: on


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("safe", ["", "$", "$."])
def test_the_raw_rule_is_the_rule(name, safe):
    raw = quote(name, safe=safe)
    assert bool(jsonp.RAW_CALLBACK.fullmatch(raw)) == bool(jsonp.CALLBACK.fullmatch(name)), raw


def test_wrap():
    assert jsonp.wrap(b'{"a":1}', "cb") == b'cb({"a":1})'

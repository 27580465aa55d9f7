"""edge/routes/: the route table, and the nginx locations rendered from it."""

from __future__ import annotations

import re

from control.services import render_nginx_conf
from edge.routes import ROUTES
from marquee.settings import from_env


def test_every_route_with_a_location_is_an_nginx_location(tmp_path):
    conf = render_nginx_conf(from_env({"MARQUEE_HOME": str(tmp_path)}))
    own = [route for route in ROUTES if route.location]
    assert {route.family for route in own} >= {"search", "find"}
    for route in own:
        block = conf.split(f'location ~ "{route.pattern}" {{', 1)[1].split("\n        }", 1)[0]
        assert f"set $mq_door {route.family};" in block and f"set $mq_dialect {route.dialect};" in block
        assert 'require("marquee_gate").access()' in block
        if route.precomputed:  # Lua answers what the release holds, a named location proxies the rest
            module, function = route.precomputed.split(".")
            assert f'require("{module}").{function}("@{route.family}"' in block
            block = conf.split(f"location @{route.family} {{", 1)[1].split("\n        }", 1)[0]
        upstream = "edge_answers" if route.apart else "edge_content"  # apart: the answer workers
        assert f"proxy_pass http://{upstream};" in block
        assert ("proxy_cache marquee_answers;" in block) == route.cacheable
        assert "proxy_hide_header X-RateLimit-Remaining;" in block  # the window's headers are nginx's own


def test_the_answer_workers_upstream_has_a_socket_each(tmp_path):
    settings = from_env({"MARQUEE_HOME": str(tmp_path), "MARQUEE_ANSWER_WORKERS": "3"})
    upstream = render_nginx_conf(settings).split("upstream edge_answers {", 1)[1].split("}", 1)[0]
    assert re.findall(r"server unix:(\S+) ", upstream) == [str(p) for p in settings.answer_sockets]
    assert len(set(settings.answer_sockets)) == 3 and "least_conn;" in upstream
    assert {route.family for route in ROUTES if route.apart} == {
        "search",
        "find",
        "discover",
        "lists",
        "latest",
        "trending",
        "showtimes",
        "changes",
        "item_changes",
        "compat",
    }


def test_paths_go_to_the_family_that_answers_them():
    def family(path: str) -> str:
        return next(route.family for route in ROUTES if route.matches(path))

    assert family("/3/search/movie") == family("/3/search/multi/") == "search"
    assert family("/3/find/tt0133093") == family("/3/movie/tt0133093/credits") == "find"
    assert family("/3/movie/603") == family("/3/search/films") == family("/3/movie/603/similar") == "append"
    assert [r.family for r in ROUTES][-1] == "append" and not ROUTES[-1].location
    for route in ROUTES:  # each pattern is a PCRE nginx can take as it is, and a Python regex
        re.compile(route.pattern)
        assert '"' not in route.pattern and "{" not in route.pattern

"""The rendered nginx configuration: valid for nginx, no key in its logs, the policy's numbers."""

from __future__ import annotations

import re
import subprocess

import pytest

from control.services import ServiceError, gate_conf, render_nginx_conf, require_binary
from edge.policy import CACHE_CONTROL
from marquee.packs import PACK_NAME
from marquee.settings import from_env


def test_rendered_config_passes_nginx_t(tmp_path):
    settings = from_env({"MARQUEE_HOME": str(tmp_path)})
    settings.run_dir.mkdir(parents=True)
    settings.log_dir.mkdir(parents=True)
    conf = settings.run_dir / "nginx.conf"
    conf.write_text(render_nginx_conf(settings))
    result = subprocess.run(
        [require_binary("nginx"), "-t", "-c", str(conf), "-p", str(settings.run_dir)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_log_formats_never_carry_the_query_string_or_authorization(tmp_path):
    conf = render_nginx_conf(from_env({"MARQUEE_HOME": str(tmp_path)}))
    formats = re.findall(r"log_format\s+\w+\s+(.*?);", conf, re.S)
    assert formats
    for fmt in formats:
        for leaky in (
            "$request ",
            '$request"',
            "$request_uri",
            "$args",
            "$query_string",
            "$arg_",
            "$http_authorization",
        ):
            assert leaky not in fmt


def test_cache_policy_numbers_are_the_edge_policy(tmp_path):
    from edge.policy import MAX_AGE
    from edge.routes import ROUTES

    conf = render_nginx_conf(from_env({"MARQUEE_HOME": str(tmp_path)}))
    # A route's policy reaches clients in the edge's answers; nginx keeps those answers as long.
    by_routes = {route.cache_control for route in ROUTES if route.location}
    for name, value in CACHE_CONTROL.items():
        assert value in conf or name in by_routes, name
    for route in ROUTES:
        if route.location and route.cacheable:
            # A precomputed route's location answers from the list pack, and proxies from a named one.
            where = f"location @{route.family} {{" if route.precomputed else f'location ~ "{route.pattern}" {{'
            block = conf.split(where, 1)[1].split("\n        }", 1)[0]
            assert f"proxy_cache_valid 200 {min(MAX_AGE[route.cache_control], 3600)}s;" in block


def test_the_lua_gate_is_in_front_of_the_pack(tmp_path):
    conf = render_nginx_conf(from_env({"MARQUEE_HOME": str(tmp_path)}))
    assert 'require("marquee_gate").access()' in conf and "auth_request" not in conf
    assert "ngx_http_lua_module.so" in conf and 'require("marquee_docs").serve()' in conf
    assert "try_files" not in conf.split("server {")[1]  # the API host has no file per document
    assert f"pack_name = [==[{PACK_NAME}]==]" in conf


def test_the_lua_gate_gets_the_edges_bodies_window_and_redis(tmp_path):
    settings = from_env(
        {
            "MARQUEE_HOME": str(tmp_path),
            "MARQUEE_RATE_WINDOW_SECONDS": "2.5",
            "MARQUEE_REDIS_URL": "redis://127.0.0.1:6399/3",
        }
    )
    conf = gate_conf(settings)
    assert conf["window_us"] == "[==[2500000]==]"
    assert (conf["redis_host"], conf["redis_port"], conf["redis_db"]) == ("[==[127.0.0.1]==]", "6399", "[==[3]==]")
    tmdb = conf["refusals"].split("[ [==[tmdb]==] ] = ", 1)[1]  # the TMDB dialect's table
    assert '"status_code":7' in tmdb and '"status_code":36' in tmdb and "[ [==[status]==] ] = 402" in tmdb
    assert "(@LIMIT@)" in tmdb and conf["limit_placeholder"] == "[==[@LIMIT@]==]"  # each account's limit goes there
    assert conf["grant_prefix"] == "[==[marquee:grant:]==]" and conf["script_path"].endswith("gate.lua]==]")
    unix = gate_conf(from_env({"MARQUEE_HOME": str(tmp_path)}))
    assert unix["redis_host"] == f"[==[unix:{tmp_path / 'run' / 'redis.sock'}]==]" and "redis_port" not in unix


def test_a_missing_lua_module_is_a_clear_error(tmp_path):
    settings = from_env({"MARQUEE_HOME": str(tmp_path), "MARQUEE_NGINX_MODULES_DIR": str(tmp_path)})
    with pytest.raises(ServiceError, match="libnginx-mod-http-lua"):
        render_nginx_conf(settings)


def test_lua_literals_quote_safely():
    from control.services import lua_literal

    assert (
        lua_literal({"a": True, "b": 2, "c": "x"})
        == "{[ [==[a]==] ] = true, [ [==[b]==] ] = 2, [ [==[c]==] ] = [==[x]==]}"
    )
    assert lua_literal({"z", "y"}) == "{[ [==[y]==] ] = true, [ [==[z]==] ] = true}"  # a set, sorted
    with pytest.raises(ValueError):
        lua_literal("a]==]b")  # would close the long string early
    with pytest.raises(TypeError):
        lua_literal(None)

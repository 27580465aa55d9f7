"""The rendered nginx configuration: valid for nginx, no key in its logs, the policy's numbers."""

from __future__ import annotations

import re
import subprocess

from edge.policy import CACHE_CONTROL
from marquee.services import render_nginx_conf, require_binary
from marquee.settings import from_env


def test_rendered_config_passes_nginx_t(tmp_path):
    settings = from_env({"MARQUEE_HOME": str(tmp_path)})
    settings.run_dir.mkdir(parents=True)
    settings.log_dir.mkdir(parents=True)
    conf = settings.run_dir / "nginx.conf"
    conf.write_text(render_nginx_conf(settings))
    result = subprocess.run([require_binary("nginx"), "-t", "-c", str(conf), "-p", str(settings.run_dir)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_log_formats_never_carry_the_query_string_or_authorization(tmp_path):
    conf = render_nginx_conf(from_env({"MARQUEE_HOME": str(tmp_path)}))
    formats = re.findall(r"log_format\s+\w+\s+(.*?);", conf, re.S)
    assert formats
    for fmt in formats:
        for leaky in ("$request ", "$request\"", "$request_uri", "$args", "$query_string", "$arg_", "$http_authorization"):
            assert leaky not in fmt


def test_cache_policy_numbers_are_the_edge_policy(tmp_path):
    conf = render_nginx_conf(from_env({"MARQUEE_HOME": str(tmp_path)}))
    for value in CACHE_CONTROL.values():
        assert value in conf

"""No key appears in clear in the registry, in Redis or in any log, whichever way it was sent."""

from __future__ import annotations

import pytest
import redis

from tests.e2e.conftest import eventually

pytestmark = pytest.mark.e2e


def test_no_key_in_registry_redis_or_logs(start_stack):
    stack = start_stack()
    key = stack.account("secretive", "pro")
    bad = "feedfacefeedfacefeedfacefeedface"  # well-formed but unknown: logged paths must not keep it either
    for sent in (key, bad):
        stack.get("/3/configuration", sent)
        stack.get("/3/configuration", sent, bearer=True)
        stack.get("/3/movie/999999999", sent)
        stack.client.post("/3/configuration", params={"api_key": sent})
    stack.exported(key)
    stack.stack.stop_one("redis")  # an error path too, which the gate logs without the request
    assert stack.get("/3/configuration", key).status_code == 503
    error_log = stack.settings.log_dir / "nginx-error.log"
    eventually(lambda: error_log.exists() and b"redis_down_refused count=1" in error_log.read_bytes())
    stack.stack.start_redis()
    # nginx writes each worker's buffered access log within a second: the nine requests above, logged.
    access_log = stack.settings.log_dir / "nginx-access.log"
    eventually(lambda: access_log.exists() and len(access_log.read_text().splitlines()) >= 9)

    # Redis: every key name and value.
    client = redis.Redis.from_url(stack.settings.redis_url)
    dump = b"".join(
        k + (b"".join(client.lrange(k, 0, -1)) if client.type(k) == b"list" else client.get(k))
        for k in client.keys("*")
    )
    client.close()
    files = [
        stack.settings.registry_path,
        *stack.settings.home.glob("registry.sqlite3*"),
        *stack.settings.log_dir.glob("*"),
        *stack.settings.run_dir.glob("gate-grants*"),
    ]
    assert any(f.name == "nginx-access.log" and f.stat().st_size > 0 for f in files)
    assert any(f.name == "gate-grants.tsv" and f.stat().st_size > 0 for f in files)
    for secret in (key, bad):
        assert secret.encode() not in dump
        for path in files:
            assert secret.encode() not in path.read_bytes(), f"{secret} found in {path}"

"""The edge's metrics, in Prometheus's text format (prometheus-client), served at the edge's
/metrics; nginx's admin listener appends them to its own (nginx/lua/marquee_metrics.lua).

Why a collector over plain counters rather than prometheus-client Counters on the hot path: the
content listener answers in a few tens of microseconds, and a Counter's lock and label lookup per
answer would be a measurable share of that. The listeners add to ints and dicts; the collector
reads them when Prometheus scrapes.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

# Answers of the content listener by status class ("2xx", "4xx", ...); edge/content_listener.py adds.
CONTENT_ANSWERS: Counter[str] = Counter()
# Images the image host asked of the edge, by outcome ("made": a size scaled down; "original": the
# original's bytes, drawn or read; "missing"; "failed"); edge/image_listener.py adds.
IMAGE_ANSWERS: Counter[str] = Counter()


class EdgeCollector:
    """Reads the edge's live objects at scrape time."""

    def __init__(self, gate, cache, current_link: Path) -> None:
        self.gate = gate
        self.cache = cache
        self.current_link = current_link

    def collect(self):
        answers = CounterMetricFamily(
            "marquee_edge_answers",
            "Answers of the edge's content listener (appends, filters, pages nginx cannot splice), by status class.",
            labels=["class"],
        )
        for status_class, n in sorted(CONTENT_ANSWERS.items()):
            answers.add_metric([status_class], n)
        yield answers
        images = CounterMetricFamily(
            "marquee_edge_image_sizes",
            "Images the image host had no file for, made by the edge (nginx keeps each), by outcome.",
            labels=["outcome"],
        )
        for outcome, n in sorted(IMAGE_ANSWERS.items()):
            images.add_metric([outcome], n)
        yield images
        cache = CounterMetricFamily(
            "marquee_edge_document_cache",
            "The edge's document cache: hit or miss (a miss reads the release pack).",
            labels=["result"],
        )
        cache.add_metric(["hit"], self.cache.hits)
        cache.add_metric(["miss"], self.cache.misses)
        yield cache
        down = CounterMetricFamily(
            "marquee_edge_redis_down",
            "Requests the edge decided without Redis, by the policy's outcome.",
            labels=["outcome"],
        )
        for outcome, n in sorted(self.gate.redis_down.items()):
            down.add_metric([outcome], n)
        yield down
        limiter = CounterMetricFamily("marquee_edge_limiter_calls", "The edge's batched script calls to Redis.")
        limiter.add_metric([], self.gate.limiter.batches)
        yield limiter
        keys = GaugeMetricFamily("marquee_registry_keys", "Live keys in the edge's copy of the registry.")
        keys.add_metric([], len(self.gate.snapshot.grants))
        yield keys
        synced = GaugeMetricFamily(
            "marquee_registry_in_redis",
            "Whether Redis holds the registry as the edge "
            "last loaded or synced it (0: the gates fall back on their own copies).",
        )
        synced.add_metric([], 1 if self.gate.snapshot.redis_synced else 0)
        yield synced
        build = self.current_link / "BUILD"
        release = GaugeMetricFamily("marquee_edge_release_info", "The release the edge serves now.", labels=["release"])
        release.add_metric([build.read_text().strip() if build.exists() else ""], 1)
        yield release


class Metrics:
    """The edge's registry of metrics and its event-loop lag probe."""

    PROBE_SECONDS = 0.25

    def __init__(self, gate, cache, current_link: Path) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.registry.register(EdgeCollector(gate, cache, current_link))
        self.loop_lag = Histogram(
            "marquee_edge_event_loop_lag_seconds",
            "How late the edge's event loop ran a timer due every 0.25 s: the time a "
            "ready answer may wait behind other work.",
            buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
            registry=self.registry,
        )

    async def probe_loop_lag(self) -> None:
        while True:
            due = time.monotonic() + self.PROBE_SECONDS
            await asyncio.sleep(self.PROBE_SECONDS)
            self.loop_lag.observe(max(0.0, time.monotonic() - due))

    def render(self) -> bytes:
        return generate_latest(self.registry)

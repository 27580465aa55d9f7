"""Cache policy per path family, as data; control/services.py renders the same numbers into
nginx/marquee.conf.j2, and the edge's answers and nginx's Lua splices use them from here.

Precomputed answers change only when a release is published, so clients may keep them for
hours; images never change under one path, so they are immutable for a year.
"""

from __future__ import annotations

HOUR = 60 * 60

# fmt: off
CACHE_CONTROL = {
    "catalogue": f"public, max-age={6 * HOUR}",  # 6 hours: /3 details, credits, collections
    "reference": f"public, max-age={24 * HOUR}",  # 1 day: configuration, genre lists
    "lists": "public, max-age=1800",  # 30 minutes: title lists that depend on today's date
    "showtimes": "public, max-age=60",  # a minute: a showtime that has begun is not listed
    "images": f"public, max-age={365 * 24 * HOUR}, immutable",  # 1 year: /t/p/...
    "errors": "no-store",
}
# fmt: on

MAX_AGE = {
    name: int(policy.split("max-age=")[1].split(",")[0])
    for name, policy in CACHE_CONTROL.items()
    if "max-age=" in policy
}

# The gzip of every answer made on the fly: nginx's gzip filter (level 1: the cheapest per answer),
# the gzip nginx makes in Lua for its own answers (nginx/lua/marquee_gzip.lua) and the edge's of the
# answers nginx caches (edge/content_listener.py): one level, one threshold below which JSON goes as it is.
GZIP_LEVEL = 1
GZIP_MIN_LENGTH = 1024

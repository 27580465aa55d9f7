"""Write marquee_tv.json: TMDB's TV schemas corrected where the spec disagrees with the real API.

Run after extract.py whenever the TV paths change, and commit the output:

    python site_gen/schemas/tv_patches.py

The corrections (each is what api.themoviedb.org actually sends):
- `seasons[].vote_average` (series details) and `results[].vote_average` (similar) are decimals such
  as 7.5, not integers (the spec's examples happened to be 0);
- `next_episode_to_air` has the same shape as `last_episode_to_air`, and either is null when there
  is no such episode; `last_air_date` is null before the first episode airs;
- external ids the show, season or episode lacks are null (Freebase ids always are);
- watch/providers (the series' and, not extracted for that reason, a season's) lists its regions by example, not as required keys: `results` is any object, and
  so is each provider's `display_priorities` in /3/watch/providers/tv.
Our own extension /3/tv/{series_id}/moods is declared here too (the shape of the movie one).
The validator marks these per path with `nullable: true` rather than growing its global NULLABLE.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TMDB = HERE / "tmdb_v3_responses.json"
OUT = HERE / "marquee_tv.json"

SERIES = "/3/tv/{series_id}"
SEASON = SERIES + "/season/{season_number}"
EPISODE = SEASON + "/episode/{episode_number}"
# fmt: off
_NULLABLE_IDS = {
    SERIES + "/external_ids": ("imdb_id", "freebase_mid", "freebase_id", "tvdb_id", "tvrage_id", "wikidata_id",
                               "facebook_id", "instagram_id", "twitter_id"),
    SEASON + "/external_ids": ("freebase_mid", "freebase_id", "tvdb_id", "tvrage_id", "wikidata_id"),
    EPISODE + "/external_ids": ("imdb_id", "freebase_mid", "freebase_id", "tvdb_id", "tvrage_id", "wikidata_id"),
}
# fmt: on


def patched(tmdb: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    details = copy.deepcopy(tmdb[SERIES])
    props = details["properties"]
    props["seasons"]["items"]["properties"]["vote_average"]["type"] = "number"
    props["last_episode_to_air"]["nullable"] = True
    props["next_episode_to_air"] = copy.deepcopy(props["last_episode_to_air"])
    props["last_air_date"]["nullable"] = True
    out[SERIES] = details
    similar = copy.deepcopy(tmdb[SERIES + "/similar"])
    similar["properties"]["results"]["items"]["properties"]["vote_average"]["type"] = "number"
    out[SERIES + "/similar"] = similar
    for path, names in _NULLABLE_IDS.items():
        schema = copy.deepcopy(tmdb[path])
        for name in names:
            schema["properties"][name]["nullable"] = True
            if name == "tvrage_id":
                schema["properties"][name]["type"] = "integer"
        out[path] = schema
    # A season's providers are its series' (site_gen/sql/tv_season_watch_providers.sql), in the same shape.
    for path in (SERIES + "/watch/providers", SERIES + "/season/{season_number}/watch/providers"):
        out[path] = {"type": "object", "properties": {"id": {"type": "integer"}, "results": {"type": "object"}}}
    providers = copy.deepcopy(tmdb["/3/watch/providers/tv"])
    providers["properties"]["results"]["items"]["properties"]["display_priorities"] = {"type": "object"}
    out["/3/watch/providers/tv"] = providers
    out[SERIES + "/moods"] = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "moods": {
                "type": "array",
                "items": {"type": "object", "properties": {"name": {"type": "string"}, "score": {"type": "integer"}}},
            },
        },
    }
    return out


def render(schemas: dict[str, Any]) -> str:
    return json.dumps(schemas, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    OUT.write_text(render(patched(json.loads(TMDB.read_text()))))
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Write marquee_lists.json: TMDB's schemas of the title lists and discover, corrected where the
spec disagrees with the real API (edge/routes/lists.py and discover.py answer these paths).

Run after extract.py whenever these paths change, and commit the output:

    python site_gen/schemas/list_patches.py

The corrections (what api.themoviedb.org actually sends): `results[].vote_average` is a decimal such
as 7.5 on every list, where the spec says integer on some (its examples happened to be 0); a popular
person's `known_for` holds films and series, and trending/all mixes films, series and people, so
those take the shape of our /3/search/person and /3/search/multi (marquee_search.json), whose
items are the same; a change's `value` is of any type, not the spec's example's poster object.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TMDB = HERE / "tmdb_v3_responses.json"
OUT = HERE / "marquee_lists.json"
SEARCH = HERE / "marquee_search.json"
# fmt: off
LISTS = ("/3/movie/popular", "/3/movie/top_rated", "/3/movie/now_playing", "/3/movie/upcoming", "/3/tv/popular",
         "/3/tv/top_rated", "/3/tv/airing_today", "/3/tv/on_the_air", "/3/discover/movie", "/3/discover/tv",
         "/3/trending/movie/{time_window}", "/3/trending/tv/{time_window}")
# fmt: on
# A change's value is whatever the key holds (a title, a list of genres, a number): any type.
# fmt: off
ITEM_CHANGES = ("/3/movie/{movie_id}/changes", "/3/tv/{series_id}/changes", "/3/person/{person_id}/changes",
                "/3/tv/season/{season_id}/changes", "/3/tv/episode/{episode_id}/changes")
# fmt: on
# Lists of several kinds or of people take the shape of our search answers with the same items.
# fmt: off
LIKE_SEARCH = {"/3/person/popular": "/3/search/person", "/3/trending/person/{time_window}": "/3/search/person",
               "/3/trending/all/{time_window}": "/3/search/multi"}
# fmt: on


def patched(tmdb: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    out = {path: copy.deepcopy(ours[like]) for path, like in LIKE_SEARCH.items()}
    for path in LISTS:
        schema = copy.deepcopy(tmdb[path])
        schema["properties"]["results"]["items"]["properties"]["vote_average"]["type"] = "number"
        out[path] = schema
    for path in ITEM_CHANGES:
        schema = copy.deepcopy(tmdb[path])
        item = schema["properties"]["changes"]["items"]["properties"]["items"]["items"]["properties"]
        item["value"], item["original_value"] = {}, {}
        out[path] = schema
    return out


def main() -> int:
    OUT.write_text(
        json.dumps(patched(json.loads(TMDB.read_text()), json.loads(SEARCH.read_text())), indent=1, ensure_ascii=False)
        + "\n"
    )
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

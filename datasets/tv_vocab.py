"""Fixed reference data and word lists for the TV side of the synthetic catalogue.

TMDB's TV genre ids, series statuses and types and the content-rating systems are real; network
names, episode titles and keywords are invented. As in vocab.py, append only: the generator indexes
these tuples, so reordering changes every catalogue built from a given seed.
"""

from __future__ import annotations

# TMDB's TV genres, exactly as /3/genre/tv/list returns them in English.
# fmt: off
TV_GENRES: tuple[tuple[int, str], ...] = (
    (10759, "Action & Adventure"), (16, "Animation"), (35, "Comedy"), (80, "Crime"),
    (99, "Documentary"), (18, "Drama"), (10751, "Family"), (10762, "Kids"), (9648, "Mystery"),
    (10763, "News"), (10764, "Reality"), (10765, "Sci-Fi & Fantasy"), (10766, "Soap"), (10767, "Talk"),
    (10768, "War & Politics"), (37, "Western"),
)
# fmt: on
TV_GENRE_WEIGHTS: tuple[float, ...] = (6, 5, 12, 7, 3, 16, 3, 2, 4, 0.5, 1, 6, 2, 0.5, 1.5, 0.5)

# (status, weight) and (type, weight, genre id forced first or 0, typical runtime minutes).
# fmt: off
STATUSES: tuple[tuple[str, float], ...] = (
    ("Returning Series", 30), ("Ended", 45), ("Canceled", 12), ("In Production", 7), ("Planned", 6),
)
# fmt: on
# fmt: off
TYPES: tuple[tuple[str, float, int, int], ...] = (
    ("Scripted", 62, 0, 45), ("Reality", 12, 10764, 42), ("Documentary", 9, 99, 50),
    ("Miniseries", 8, 0, 55), ("News", 4, 10763, 30), ("Talk Show", 5, 10767, 40),
)
# fmt: on
EPISODE_COUNTS: tuple[tuple[int, float], ...] = ((6, 5), (8, 6), (10, 5), (12, 2), (13, 1), (22, 0.6), (24, 0.3))

# Real rating systems, mildest first; a series' severity (0..4) indexes each scale proportionally.
# fmt: off
CONTENT_RATINGS: dict[str, tuple[str, ...]] = {
    "US": ("TV-Y", "TV-G", "TV-PG", "TV-14", "TV-MA"),
    "DE": ("0", "6", "12", "16", "18"),
    "GB": ("U", "PG", "12", "15", "18"),
    "FR": ("NR", "10", "12", "16", "18"),
    "BR": ("L", "10", "12", "14", "18"),
    "AU": ("G", "PG", "M", "MA 15+", "R 18+"),
    "CA": ("C", "G", "PG", "14+", "18+"),
    "ES": ("TP", "7", "12", "16", "18"),
    "NL": ("AL", "6", "12", "16", "18"),
    "KR": ("ALL", "7", "12", "15", "19"),
}
# fmt: on
US_DESCRIPTORS: tuple[str, ...] = ("D", "L", "S", "V")

# fmt: off
NETWORK_WORDS = (
    "Northstar", "Bluewave", "Meridian", "Crescent", "Summit", "Harbor", "Lumen", "Vertex", "Aurora",
    "Redwood", "Capital", "Pioneer", "Coastal", "Prism", "Horizon", "Atlas", "Falcon", "Beacon",
)
# fmt: on
NETWORK_SUFFIXES = ("TV", "Network", "Channel", "+", "One", "Broadcasting", "Television")

# fmt: off
EPISODE_WORDS = (
    "Homecoming", "The Long Night", "Crossroads", "Aftermath", "Reckoning", "Blood Ties", "Exit Wounds",
    "The Offer", "Ghosts", "Fault Lines", "Lockdown", "The Calm", "First Light", "Deadline",
    "Old Friends", "Point of No Return", "Trust Issues", "The Reunion", "Sacrifice", "Checkmate",
    "Undertow", "Wildfire", "The Visit", "Leverage", "Low Tide", "Smoke and Mirrors", "The Deal",
)
# fmt: on
# fmt: off
EPISODE_GOALS = (
    "A secret from the past threatens everything.", "An unexpected visitor changes the plan.",
    "Loyalties are tested as the pressure mounts.", "The team races against the clock.",
    "A new lead sends the investigation in a dangerous direction.", "Old rivals are forced to work together.",
    "A celebration takes a dark turn.", "Someone close is not who they seem.",
)
# fmt: on
# fmt: off
KEYWORDS: tuple[tuple[int, str], ...] = (
    (180547, "sitcom"), (193171, "workplace comedy"), (6149, "police"), (10714, "serial killer"),
    (9663, "sequel"), (818, "based on novel or book"), (14964, "drug trafficking"), (6054, "friendship"),
    (10084, "rescue"), (4565, "dystopia"), (310, "artificial intelligence"), (15060, "period drama"),
    (181144, "competition"), (1416, "jazz"), (1701, "hero"), (9951, "alien"), (3133, "vampire"),
    (161176, "space opera"), (158718, "lgbt"), (207317, "christmas"), (190370, "mockumentary"),
    (6270, "high school"), (13088, "small town"), (4344, "musical"), (10349, "survival"),
    (186565, "zombie apocalypse"), (12554, "dragon"), (187056, "woman director"), (10683, "coming of age"),
    (9748, "revenge"), (10292, "gore"), (33637, "political drama"), (155251, "courtroom"),
)
# fmt: on
# fmt: off
VIDEO_TYPES: tuple[tuple[str, float], ...] = (
    ("Trailer", 5), ("Teaser", 3), ("Opening Credits", 1), ("Featurette", 1.5), ("Behind the Scenes", 1),
    ("Clip", 2),
)
# fmt: on
VIDEO_SIZES = (720, 1080, 1080, 2160)
ALTERNATIVE_TITLE_TYPES = ("", "", "", "Working Title", "Short Title", "Informal Title")
# fmt: off
CREW_ROLES: tuple[tuple[str, str], ...] = (
    ("Production", "Executive Producer"), ("Sound", "Original Music Composer"), ("Production", "Casting"),
    ("Production", "Producer"), ("Production", "Co-Executive Producer"),
)
# fmt: on
# Per-episode jobs: (department, job, chance an episode has one, size of the series' pool).
# fmt: off
EPISODE_ROLES: tuple[tuple[str, str, float, int], ...] = (
    ("Directing", "Director", 1.0, 6), ("Writing", "Writer", 1.0, 6), ("Writing", "Teleplay", 0.15, 3),
    ("Camera", "Director of Photography", 0.5, 2), ("Editing", "Editor", 0.6, 3),
)
# fmt: on

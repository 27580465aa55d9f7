"""Word lists and reference tables for the movie sub-resources (marquee_datasets.movie_extras).

Keywords are real-looking TMDB plot keywords grouped by the genre they usually come with (the generator
draws most of a film's keywords from its genres' groups, so keywords, genres and the moods derived from
both agree). Watch providers use TMDB's provider ids and names. Order matters, as in vocab.py: append,
never reorder.
"""

from __future__ import annotations

# Keywords any film may carry.
# fmt: off
GENERAL_KEYWORDS: tuple[str, ...] = (
    "based on novel or book", "based on true story", "sequel", "remake", "woman director",
    "new york city", "los angeles, california", "london, england", "paris, france", "small town",
    "friendship", "family", "father son relationship", "mother daughter relationship", "brother sister relationship",
    "love", "death", "revenge", "betrayal", "redemption", "loss of loved one", "coming of age", "duringcreditsstinger",
    "aftercreditsstinger", "independent film", "biography", "based on comic", "based on play or musical",
    "1980s", "1970s", "1990s", "1960s", "flashback", "nonlinear timeline", "road trip", "christmas",
    "high school", "college", "teenager", "suburb", "island", "desert", "snow", "rain", "hospital",
    "prison", "hotel", "wedding", "funeral", "secret", "lie", "marriage", "divorce", "pregnancy",
    "dog", "cat", "horse", "car", "train", "airplane", "ship", "money", "corruption", "politics",
    "religion", "journalist", "writer", "artist", "musician", "teacher", "doctor", "lawyer", "police",
)
# fmt: on

# (genre name as in vocab.GENRES, keywords usually found with it).
# fmt: off
GENRE_KEYWORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Action", ("martial arts", "car chase", "explosion", "shootout", "mercenary", "hostage", "bodyguard",
                "one man army", "special forces", "assassin", "terrorism", "fistfight", "rescue mission")),
    ("Adventure", ("treasure hunt", "expedition", "jungle", "pirate", "quest", "lost civilization",
                   "survival", "map", "mountain climbing", "shipwreck", "archaeologist", "sword fight")),
    ("Animation", ("anthropomorphism", "talking animal", "cartoon", "stop motion", "anime", "computer animation",
                   "hand-drawn animation", "musical number", "princess", "toy", "dragon", "magical creature")),
    ("Comedy", ("slapstick", "parody", "satire", "buddy comedy", "mistaken identity", "workplace comedy",
                "dark comedy", "romantic comedy", "road movie", "misfit", "prank", "stand-up comedy")),
    ("Crime", ("heist", "gangster", "mafia", "drug dealer", "detective", "murder", "serial killer", "bank robbery",
               "organized crime", "undercover cop", "money laundering", "kidnapping", "neo-noir", "film noir")),
    ("Documentary", ("interview", "archive footage", "nature", "wildlife", "music documentary", "sports documentary",
                     "climate change", "history", "investigative journalism", "behind the scenes", "true crime")),
    ("Drama", ("grief", "addiction", "illness", "poverty", "class differences", "loneliness", "depression",
               "immigrant", "racism", "single mother", "dysfunctional family", "courtroom", "alcoholism")),
    ("Family", ("kids", "holiday", "summer camp", "best friend", "talking dog", "christmas eve", "magic",
                "adventure for children", "growing up", "grandparent grandchild relationship", "pets")),
    ("Fantasy", ("sword and sorcery", "wizard", "witch", "magic", "fairy tale", "mythology", "elves", "curse",
                 "prophecy", "parallel world", "chosen one", "enchanted forest", "ghost")),
    ("History", ("world war ii", "world war i", "ancient rome", "medieval", "19th century", "18th century",
                 "biography", "historical figure", "revolution", "cold war", "civil war", "royalty", "period drama")),
    ("Horror", ("haunted house", "zombie", "vampire", "werewolf", "demon", "possession", "slasher", "gore",
                "supernatural", "exorcism", "cult", "creature", "found footage", "jump scare", "witchcraft")),
    ("Music", ("musical", "concert", "band", "singer", "rock and roll", "hip-hop", "jazz", "dance",
               "music industry", "songwriter", "orchestra", "talent show")),
    ("Mystery", ("whodunit", "investigation", "missing person", "amnesia", "conspiracy", "puzzle", "twist ending",
                 "private detective", "cover-up", "disappearance", "secret society", "clue")),
    ("Romance", ("love triangle", "first love", "unrequited love", "forbidden love", "lovers", "summer romance",
                 "star-crossed lovers", "second chance", "long-distance relationship", "wedding planner", "affair")),
    ("Science Fiction", ("time travel", "space", "alien", "robot", "artificial intelligence", "dystopia",
                         "post-apocalyptic future", "cyberpunk", "spaceship", "virtual reality", "cloning",
                         "parallel universe", "superhero", "mutant", "genetic engineering", "space opera")),
    ("TV Movie", ("made for tv", "holiday romance", "small town christmas", "reunion", "anthology")),
    ("Thriller", ("psychological thriller", "stalker", "cat and mouse", "espionage", "spy", "chase",
                  "paranoia", "home invasion", "blackmail", "double cross", "manhunt", "ticking clock")),
    ("War", ("soldier", "battlefield", "prisoner of war", "resistance", "army", "navy", "air force",
             "d-day", "vietnam war", "nazi", "military", "war crime")),
    ("Western", ("cowboy", "gunslinger", "sheriff", "outlaw", "frontier", "ranch", "bounty hunter",
                 "wild west", "native american", "gold rush", "duel", "saloon")),
)
# fmt: on

# TMDB video types, how often each appears, and the names uploaders give them.
# fmt: off
VIDEO_TYPES: tuple[tuple[str, float, tuple[str, ...]], ...] = (
    ("Trailer", 40, ("Official Trailer", "Official Trailer 2", "Final Trailer", "International Trailer",
                     "Main Trailer", "Official Trailer [Subtitled]")),
    ("Teaser", 16, ("Teaser Trailer", "Official Teaser", "Teaser", "First Look")),
    ("Clip", 20, ("Clip", "Official Clip", "Opening Scene", "Extended Preview", "Sneak Peek")),
    ("Featurette", 14, ("Featurette", "Making Of", "Meet the Cast", "A Look Inside", "Vignette")),
    ("Behind the Scenes", 7, ("Behind the Scenes", "On Set", "Director's Commentary", "B-Roll")),
    ("Bloopers", 3, ("Bloopers", "Gag Reel", "Outtakes")),
)
# fmt: on
VIDEO_SIZES: tuple[tuple[int, float], ...] = ((360, 4), (480, 6), (720, 25), (1080, 60), (2160, 5))

# fmt: off
FESTIVALS: tuple[str, ...] = (
    "Sundance Film Festival", "Toronto International Film Festival", "Cannes Film Festival",
    "Venice Film Festival", "Berlin International Film Festival", "SXSW", "Tribeca Film Festival",
    "Telluride Film Festival", "Fantastic Fest", "London Film Festival",
)
# fmt: on
HOME_RELEASE_NOTES: tuple[str, ...] = ("", "", "", "Blu-ray", "DVD", "4K Ultra HD", "Digital")

# Alternative title types TMDB uses (the empty string is its most common one).
# fmt: off
ALTERNATIVE_TITLE_TYPES: tuple[str, ...] = (
    "", "working title", "short title", "informal title", "DVD title", "alternative spelling",
)
# fmt: on

# Watch providers: (TMDB provider_id, name, base display priority, offer kinds, regions or () for all).
# fmt: off
WATCH_PROVIDERS: tuple[tuple[int, str, int, tuple[str, ...], tuple[str, ...]], ...] = (
    (8, "Netflix", 0, ("flatrate",), ()),
    (9, "Amazon Prime Video", 1, ("flatrate",), ()),
    (337, "Disney Plus", 2, ("flatrate",), ()),
    (2, "Apple TV", 3, ("rent", "buy"), ()),
    (1899, "Max", 4, ("flatrate",), ("US", "ES", "FR", "NL", "SE", "DK", "NO", "FI", "MX", "BR", "AR")),
    (15, "Hulu", 5, ("flatrate",), ("US",)),
    (3, "Google Play Movies", 6, ("rent", "buy"), ()),
    (10, "Amazon Video", 7, ("rent", "buy"), ("US", "GB", "DE", "AT", "JP")),
    (531, "Paramount Plus", 8, ("flatrate",), ("US", "GB", "CA", "AU", "DE", "FR", "IT", "BR", "MX")),
    (386, "Peacock Premium", 9, ("flatrate",), ("US",)),
    (350, "Apple TV+", 10, ("flatrate",), ()),
    (192, "YouTube", 11, ("rent", "buy"), ()),
    (7, "Fandango At Home", 12, ("rent", "buy"), ("US",)),
    (68, "Microsoft Store", 13, ("rent", "buy"), ("US", "GB", "CA", "DE", "FR")),
    (35, "Rakuten TV", 14, ("rent", "buy"), ("GB", "DE", "FR", "ES", "IT", "NL", "AT", "CH")),
    (130, "Sky Store", 15, ("rent", "buy"), ("GB", "IE")),
    (39, "Now TV", 16, ("flatrate",), ("GB", "IE")),
    (381, "Canal+", 17, ("flatrate",), ("FR", "CH")),
    (30, "WOW", 18, ("flatrate",), ("DE", "AT")),
    (21, "Stan", 19, ("flatrate",), ("AU",)),
    (230, "Crave", 20, ("flatrate",), ("CA",)),
    (307, "Globoplay", 21, ("flatrate",), ("BR",)),
    (84, "U-Next", 22, ("flatrate",), ("JP",)),
    (356, "wavve", 23, ("flatrate",), ("KR",)),
    (2336, "JioHotstar", 24, ("flatrate",), ("IN",)),
    (11, "MUBI", 25, ("flatrate",), ()),
    (283, "Crunchyroll", 26, ("flatrate",), ()),
    (258, "Criterion Channel", 27, ("flatrate",), ("US", "CA")),
    (73, "Tubi TV", 28, ("free", "ads"), ("US", "CA", "AU", "MX", "GB")),
    (300, "Pluto TV", 29, ("free", "ads"), ("US", "DE", "GB", "FR", "ES", "IT", "BR", "MX")),
    (207, "The Roku Channel", 30, ("free", "ads"), ("US", "CA", "GB")),
    (538, "Plex", 31, ("free", "ads"), ("US", "CA", "GB", "AU")),
    (2100, "Amazon Prime Video with Ads", 32, ("ads",), ("US", "GB", "DE", "FR", "ES", "IT", "CA")),
)
# fmt: on
# Regions with watch-provider data (TMDB's /watch/providers/regions lists these with their names).
# fmt: off
WATCH_REGIONS: tuple[str, ...] = (
    "US", "GB", "CA", "AU", "IE", "NZ", "DE", "AT", "CH", "FR", "BE", "NL", "ES", "IT", "PT", "SE", "NO",
    "DK", "FI", "PL", "MX", "AR", "BR", "JP", "KR", "IN",
)
# fmt: on
OFFER_KINDS: tuple[str, ...] = ("flatrate", "rent", "buy", "ads", "free")

# fmt: off
RECORD_LABELS: tuple[str, ...] = (
    "Varèse Sarabande", "Milan Records", "Lakeshore Records", "WaterTower Music", "Sony Classical",
    "Decca Records", "Back Lot Music", "Hollywood Records", "Interscope Records", "Silva Screen Records",
)
# fmt: on
# fmt: off
TRACK_WORDS: tuple[str, ...] = (
    "Main Title", "Prologue", "Arrival", "The Chase", "Night Falls", "First Light", "Homecoming",
    "The Letter", "Into the Storm", "Reunion", "Farewell", "The Truth", "Aftermath", "Crossing",
    "Lullaby", "Showdown", "The Escape", "Memories", "Sunrise", "Epilogue", "End Credits", "Resolve",
)
# fmt: on
# fmt: off
BAND_NOUNS: tuple[str, ...] = (
    "Lanterns", "Wolves", "Satellites", "Rivers", "Foxes", "Strangers", "Echoes", "Pilots", "Harbors",
    "Comets", "Ghosts", "Sparrows",
)
# fmt: on

"""Fixed reference data and word lists the synthetic catalogue draws from.

Real-world lists (TMDB genre ids, ISO countries and languages, TMDB departments and jobs) are exact;
word lists for titles, names and prose are invented. Order matters: the generator indexes these
tuples, so appending is safe but reordering changes every catalogue built from a given seed.
"""

from __future__ import annotations

# TMDB's movie genres, exactly as /3/genre/movie/list returns them in English.
# fmt: off
GENRES: tuple[tuple[int, str], ...] = (
    (28, "Action"), (12, "Adventure"), (16, "Animation"), (35, "Comedy"), (80, "Crime"),
    (99, "Documentary"), (18, "Drama"), (10751, "Family"), (14, "Fantasy"), (36, "History"),
    (27, "Horror"), (10402, "Music"), (9648, "Mystery"), (10749, "Romance"),
    (878, "Science Fiction"), (10770, "TV Movie"), (53, "Thriller"), (10752, "War"), (37, "Western"),
)
# fmt: on
# Relative frequency of each genre above (Drama and Comedy dominate TMDB, Western and TV Movie are rare).
# fmt: off
GENRE_WEIGHTS: tuple[float, ...] = (
    8, 5, 4, 10, 5, 4, 14, 4, 4, 2, 6, 2, 3, 6, 4, 1.5, 7, 1.5, 1,
)
# fmt: on

# (iso_3166_1, english_name, native_name) — TMDB's /configuration/countries shape.
# fmt: off
COUNTRIES: tuple[tuple[str, str, str], ...] = (
    ("US", "United States of America", "United States"), ("GB", "United Kingdom", "United Kingdom"),
    ("CA", "Canada", "Canada"), ("AU", "Australia", "Australia"), ("NZ", "New Zealand", "New Zealand"),
    ("IE", "Ireland", "Ireland"), ("FR", "France", "France"), ("BE", "Belgium", "Belgique"),
    ("CH", "Switzerland", "Schweiz"), ("DE", "Germany", "Deutschland"), ("AT", "Austria", "Österreich"),
    ("IT", "Italy", "Italia"), ("ES", "Spain", "España"), ("MX", "Mexico", "México"),
    ("AR", "Argentina", "Argentina"), ("CL", "Chile", "Chile"), ("CO", "Colombia", "Colombia"),
    ("BR", "Brazil", "Brasil"), ("PT", "Portugal", "Portugal"), ("JP", "Japan", "日本"),
    ("KR", "South Korea", "대한민국"), ("CN", "China", "中国"), ("HK", "Hong Kong", "香港"),
    ("TW", "Taiwan", "臺灣"), ("IN", "India", "भारत"), ("RU", "Russia", "Россия"),
    ("UA", "Ukraine", "Україна"), ("PL", "Poland", "Polska"), ("CZ", "Czech Republic", "Česko"),
    ("HU", "Hungary", "Magyarország"), ("TR", "Turkey", "Türkiye"), ("GR", "Greece", "Ελλάδα"),
    ("EG", "Egypt", "مصر"), ("SA", "Saudi Arabia", "السعودية"), ("MA", "Morocco", "المغرب"),
    ("IR", "Iran", "ایران"), ("IL", "Israel", "ישראל"), ("SE", "Sweden", "Sverige"),
    ("NO", "Norway", "Norge"), ("DK", "Denmark", "Danmark"), ("FI", "Finland", "Suomi"),
    ("NL", "Netherlands", "Nederland"), ("TH", "Thailand", "ประเทศไทย"), ("ID", "Indonesia", "Indonesia"),
    ("PH", "Philippines", "Pilipinas"), ("NG", "Nigeria", "Nigeria"), ("ZA", "South Africa", "South Africa"),
)
# fmt: on

# (iso_639_1, english_name, name) — TMDB's spoken_languages / /configuration/languages shape.
# Weights: how often each is a film's original language; the primary countries follow.
# fmt: off
LANGUAGES: tuple[tuple[str, str, str], ...] = (
    ("en", "English", "English"), ("fr", "French", "Français"), ("es", "Spanish", "Español"),
    ("de", "German", "Deutsch"), ("it", "Italian", "Italiano"), ("ja", "Japanese", "日本語"),
    ("ko", "Korean", "한국어/조선말"), ("zh", "Mandarin", "普通话"), ("hi", "Hindi", "हिन्दी"),
    ("ru", "Russian", "Pусский"), ("pt", "Portuguese", "Português"), ("tr", "Turkish", "Türkçe"),
    ("pl", "Polish", "Polski"), ("ar", "Arabic", "العربية"), ("sv", "Swedish", "svenska"),
    ("da", "Danish", "Dansk"), ("no", "Norwegian", "Norsk"), ("nl", "Dutch", "Nederlands"),
    ("fi", "Finnish", "suomi"), ("th", "Thai", "ภาษาไทย"), ("id", "Indonesian", "Bahasa indonesia"),
    ("fa", "Persian", "فارسی"), ("he", "Hebrew", "עִבְרִית"), ("cs", "Czech", "Český"),
    ("hu", "Hungarian", "Magyar"), ("el", "Greek", "ελληνικά"), ("ta", "Tamil", "தமிழ்"),
    ("uk", "Ukrainian", "Український"), ("cn", "Cantonese", "广州话 / 廣州話"),
)
# fmt: on
# fmt: off
LANGUAGE_WEIGHTS: tuple[float, ...] = (
    55, 6, 6, 3, 3, 5, 3, 3, 3, 2, 2, 1, 1, 1, 0.6, 0.5, 0.5, 0.6, 0.4, 0.5, 0.5, 0.5, 0.4, 0.4,
    0.4, 0.3, 0.5, 0.3, 0.8,
)
# fmt: on
# Where films in each language are mostly made (first entry is the usual origin country).
# fmt: off
LANGUAGE_COUNTRIES: dict[str, tuple[str, ...]] = {
    "en": ("US", "US", "US", "GB", "CA", "AU", "IE", "NZ"), "fr": ("FR", "FR", "BE", "CH", "CA"),
    "es": ("ES", "MX", "AR", "CL", "CO"), "de": ("DE", "DE", "AT", "CH"), "it": ("IT",),
    "ja": ("JP",), "ko": ("KR",), "zh": ("CN", "CN", "TW"), "hi": ("IN",), "ru": ("RU",),
    "pt": ("BR", "BR", "PT"), "tr": ("TR",), "pl": ("PL",), "ar": ("EG", "SA", "MA"), "sv": ("SE",),
    "da": ("DK",), "no": ("NO",), "nl": ("NL", "BE"), "fi": ("FI",), "th": ("TH",), "id": ("ID",),
    "fa": ("IR",), "he": ("IL",), "cs": ("CZ",), "hu": ("HU",), "el": ("GR",), "ta": ("IN",),
    "uk": ("UA",), "cn": ("HK",),
}
# fmt: on

# TMDB departments and a few of each one's real jobs; the first job per department is the common one.
# fmt: off
DEPARTMENT_JOBS: dict[str, tuple[str, ...]] = {
    "Directing": ("Director", "Assistant Director", "First Assistant Director", "Script Supervisor"),
    "Writing": ("Screenplay", "Writer", "Story", "Novel", "Characters"),
    "Production": ("Producer", "Executive Producer", "Co-Producer", "Casting", "Line Producer",
                   "Associate Producer"),
    "Sound": ("Original Music Composer", "Sound Designer", "Supervising Sound Editor", "Sound Mixer",
              "Music Supervisor"),
    "Camera": ("Director of Photography", "Camera Operator", "Still Photographer", "Steadicam Operator"),
    "Editing": ("Editor", "Assistant Editor", "Colorist"),
    "Art": ("Production Design", "Art Direction", "Set Decoration", "Supervising Art Director"),
    "Costume & Make-Up": ("Costume Design", "Makeup Artist", "Hairstylist", "Makeup Department Head"),
    "Visual Effects": ("Visual Effects Supervisor", "VFX Artist", "Animation Supervisor"),
    "Crew": ("Stunt Coordinator", "Stunts", "Post Production Supervisor", "Special Effects Coordinator"),
    "Lighting": ("Gaffer", "Best Boy Electric", "Lighting Technician"),
}
# fmt: on
# Every film gets these first, in this order (a film's crew without a director looks broken).
# fmt: off
CORE_CREW: tuple[tuple[str, str], ...] = (
    ("Directing", "Director"), ("Writing", "Screenplay"), ("Production", "Producer"),
    ("Sound", "Original Music Composer"), ("Camera", "Director of Photography"),
    ("Editing", "Editor"), ("Art", "Production Design"), ("Costume & Make-Up", "Costume Design"),
)
# fmt: on
# known_for_department of people: (department, weight). Acting dominates like on TMDB.
# fmt: off
PERSON_DEPARTMENTS: tuple[tuple[str, float], ...] = (
    ("Acting", 62), ("Directing", 5), ("Writing", 6), ("Production", 8), ("Sound", 4), ("Camera", 3),
    ("Editing", 3), ("Art", 3), ("Costume & Make-Up", 2), ("Visual Effects", 2), ("Crew", 1.5),
    ("Lighting", 0.5),
)
# fmt: on

STATUSES_FUTURE: tuple[str, ...] = ("Post Production", "In Production", "Planned")

# fmt: off
FEMALE_NAMES = (
    "Mary", "Anna", "Emma", "Olivia", "Sofia", "Isabel", "Clara", "Grace", "Alice", "Julia", "Nina",
    "Laura", "Hannah", "Ingrid", "Marta", "Chloe", "Zoe", "Leila", "Aiko", "Mei", "Priya", "Elena",
    "Rosa", "Greta", "Naomi", "Vera", "Lucia", "Helen", "Margot", "Ruth", "Ada", "Iris", "Joan",
)
# fmt: on
# fmt: off
MALE_NAMES = (
    "John", "James", "Michael", "David", "Thomas", "Daniel", "Paul", "Mark", "Peter", "Henry",
    "Oscar", "Lucas", "Mateo", "Hugo", "Felix", "Ivan", "Kenji", "Hiro", "Arjun", "Omar", "Samuel",
    "Victor", "Leon", "Jack", "Robert", "Frank", "Walter", "Ethan", "Noah", "Marco", "Tariq", "Ben",
)
# fmt: on
# fmt: off
SURNAMES = (
    "Smith", "Johnson", "Brown", "Taylor", "Anderson", "Moore", "Clarke", "Walker", "Hughes",
    "Bennett", "Fischer", "Weber", "Martin", "Bernard", "Dubois", "Rossi", "Russo", "Garcia",
    "Lopez", "Silva", "Santos", "Kowalski", "Novak", "Ivanov", "Petrov", "Tanaka", "Sato", "Kim",
    "Park", "Chen", "Wang", "Singh", "Patel", "Haddad", "Yilmaz", "Larsen", "Nielsen", "Jansen",
    "O'Brien", "MacLeod", "Costa", "Moreau", "Keller", "Hayes", "Reyes", "Nakamura", "Varga",
)
# fmt: on
# fmt: off
CITIES = (
    "Los Angeles, California, USA", "New York City, New York, USA", "Chicago, Illinois, USA",
    "London, England, UK", "Manchester, England, UK", "Dublin, Ireland", "Toronto, Ontario, Canada",
    "Sydney, New South Wales, Australia", "Paris, France", "Lyon, France", "Berlin, Germany",
    "Munich, Germany", "Vienna, Austria", "Rome, Italy", "Milan, Italy", "Madrid, Spain",
    "Barcelona, Spain", "Mexico City, Mexico", "Buenos Aires, Argentina", "São Paulo, Brazil",
    "Lisbon, Portugal", "Tokyo, Japan", "Osaka, Japan", "Seoul, South Korea", "Beijing, China",
    "Shanghai, China", "Hong Kong", "Mumbai, Maharashtra, India", "Chennai, Tamil Nadu, India",
    "Moscow, Russia", "Kyiv, Ukraine", "Warsaw, Poland", "Prague, Czech Republic", "Istanbul, Turkey",
    "Cairo, Egypt", "Tehran, Iran", "Stockholm, Sweden", "Copenhagen, Denmark", "Oslo, Norway",
)
# fmt: on
# fmt: off
CHARACTER_ROLES = (
    "Detective", "Nurse", "Bartender", "Himself", "Herself", "Narrator (voice)", "Officer",
    "Doctor", "Reporter", "Waitress", "Soldier", "Teacher", "Mother", "Father", "Young Girl",
    "Taxi Driver", "Guard", "Scientist", "Priest", "Pilot", "Agent", "Judge", "Thug", "Neighbor",
)
# fmt: on

# fmt: off
TITLE_ADJECTIVES = (
    "Dark", "Silent", "Last", "Lost", "Broken", "Golden", "Hidden", "Crimson", "Final", "Secret",
    "Endless", "Burning", "Frozen", "Wild", "Quiet", "Electric", "Midnight", "Distant", "Savage",
    "Little", "Great", "Hollow", "Bitter", "Sweet", "Restless", "Invisible", "Northern", "Iron",
)
# fmt: on
# fmt: off
TITLE_NOUNS = (
    "Horizon", "River", "City", "Kingdom", "Shadow", "Garden", "Storm", "Empire", "Harbor", "Road",
    "Mirror", "Winter", "Summer", "Heart", "Promise", "Island", "Machine", "Witness", "Dream",
    "Frontier", "Signal", "Orchard", "Crown", "Station", "Hunter", "Stranger", "Season", "Voyage",
    "Legacy", "Fortune", "Echo", "Garrison", "Lighthouse", "Passage", "Requiem", "Circus",
)
# fmt: on
# fmt: off
TITLE_PLACES = (
    "Paris", "the Desert", "Tokyo", "the North", "Venice", "Harlem", "the Valley", "Berlin",
    "the Sea", "Havana", "the Mountains", "Brooklyn", "Marseille", "the Jungle", "Rome", "Nowhere",
)
# fmt: on
# A small original-title vocabulary for non-English films; later issues add full translations.
# fmt: off
NATIVE_TITLE_WORDS: dict[str, tuple[str, ...]] = {
    "fr": ("La Nuit", "Le Silence", "Les Enfants", "Le Voyage", "La Mer", "L'Été", "Le Secret"),
    "es": ("La Noche", "El Silencio", "Los Niños", "El Viaje", "El Mar", "El Verano", "El Secreto"),
    "de": ("Die Nacht", "Das Schweigen", "Die Kinder", "Die Reise", "Das Meer", "Der Sommer"),
    "it": ("La Notte", "Il Silenzio", "I Bambini", "Il Viaggio", "Il Mare", "L'Estate"),
    "ja": ("夜の街", "沈黙", "子供たち", "旅路", "海", "夏の終わり", "秘密"),
    "ko": ("밤", "침묵", "아이들", "여행", "바다", "여름", "비밀"),
    "zh": ("夜", "沉默", "孩子们", "旅程", "大海", "夏天", "秘密"),
    "cn": ("夜", "沉默", "細路", "旅程", "大海", "夏天", "秘密"),
    "hi": ("रात", "ख़ामोशी", "बच्चे", "सफ़र", "समंदर", "गर्मी", "राज़"),
    "ru": ("Ночь", "Тишина", "Дети", "Путешествие", "Море", "Лето", "Тайна"),
    "uk": ("Ніч", "Тиша", "Діти", "Подорож", "Море", "Літо", "Таємниця"),
    "pt": ("A Noite", "O Silêncio", "As Crianças", "A Viagem", "O Mar", "O Verão", "O Segredo"),
    "tr": ("Gece", "Sessizlik", "Çocuklar", "Yolculuk", "Deniz", "Yaz", "Sır"),
    "pl": ("Noc", "Cisza", "Dzieci", "Podróż", "Morze", "Lato", "Tajemnica"),
    "ar": ("الليل", "الصمت", "الأطفال", "الرحلة", "البحر", "الصيف", "السر"),
    "fa": ("شب", "سکوت", "بچه‌ها", "سفر", "دریا", "تابستان", "راز"),
    "he": ("לילה", "שקט", "ילדים", "מסע", "ים", "קיץ", "סוד"),
    "el": ("Νύχτα", "Σιωπή", "Παιδιά", "Ταξίδι", "Θάλασσα", "Καλοκαίρι", "Μυστικό"),
    "th": ("ราตรี", "ความเงียบ", "เด็ก", "การเดินทาง", "ทะเล", "ฤดูร้อน", "ความลับ"),
    "ta": ("இரவு", "மௌனம்", "குழந்தைகள்", "பயணம்", "கடல்", "கோடை", "ரகசியம்"),
}
# fmt: on
# Languages absent above (sv, da, nl, …) reuse the English-looking Latin vocabulary below.
LATIN_TITLE_WORDS = ("Natten", "Stilte", "Børnene", "Reisen", "Havet", "Sommer", "Hemlighet")

# Pieces of overviews and taglines; one sentence each, glued by the generator.
# fmt: off
PROFESSIONS = (
    "detective", "schoolteacher", "former boxer", "young widow", "con artist", "marine biologist",
    "retired spy", "nurse", "small-town sheriff", "jazz pianist", "rookie cop", "chef",
    "war photographer", "struggling writer", "farmer", "hacker", "ballet dancer", "priest",
)
# fmt: on
# fmt: off
GOALS = (
    "must confront a past they thought was buried", "sets out to find a missing sister",
    "uncovers a conspiracy that reaches the highest office", "falls for an unlikely stranger",
    "has one night to save the family business", "is drawn into a deadly game",
    "tries to bring a fractured family back together", "races to stop a catastrophe",
    "returns home after twenty years", "discovers a door to another world",
    "plans the heist of a lifetime", "fights to clear their name",
)
# fmt: on
# fmt: off
THREATS = (
    "before the storm arrives.", "while a killer closes in.", "as the war reaches the village.",
    "before time runs out.", "as old secrets surface.", "with the whole city watching.",
    "while everyone they trust turns against them.", "before the wedding.",
)
# fmt: on
# fmt: off
TAGLINES = (
    "Some secrets never stay buried.", "Every legend has a beginning.", "Trust no one.",
    "The truth is out there.", "One night. One chance.", "Home is where the danger is.",
    "Nothing will ever be the same.", "The past is never past.", "Fear has a new name.",
    "Love finds a way.", "Run.", "Based on a true story.", "The end is only the beginning.",
)
# fmt: on
# fmt: off
COMPANY_WORDS = (
    "Aurora", "Blue Harbor", "Red Lantern", "Northlight", "Silver Oak", "Paragon", "Meridian",
    "Lone Pine", "Seventh Wave", "Cobalt", "Black Swan", "Granite", "Sunset Boulevard", "Atlas",
    "Orion", "Pinewood Lane", "Kestrel", "Harbinger", "Tidewater", "Monolith", "Lumière", "Zenith",
)
# fmt: on
# fmt: off
COMPANY_SUFFIXES = (
    "Pictures", "Films", "Studios", "Entertainment", "Productions", "Media", "Film Partners",
)
# fmt: on

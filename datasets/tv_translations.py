"""Translations of series, seasons, episodes and people into the 14 served languages.

`translation_tables` adds five tables, each derived from already generated ones with its own random
streams, so adding them leaves every other table unchanged:

- `series_translations` (name, overview, tagline, homepage): like films, popular series are
  translated into most languages and the long tail into few; the original language always has a row
  with the original name; English series keep tv_series' English text, others usually do.
- `season_translations` and `episode_translations` (name, overview): a season or episode is
  translated only where its series is. Season names are the language's "Season N"; episode names are
  titles in the language or its "Episode N", as TMDB's translators often leave them.
- `person_translations` (biography): people are never renamed; popular people have biographies in
  several languages.
- `tv_genre_translations`: TMDB's TV genre names in each language (movie genres the TV list shares
  keep their movie translation).

Texts are in each language's own script (marquee_datasets.languages and LOCAL below).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import languages as lang_module
from marquee_datasets import tv_vocab, vocab
from marquee_datasets.columns import cat, rng_for, rows_of

# fmt: off
TABLES: tuple[str, ...] = ("series_translations", "season_translations", "episode_translations",
                           "person_translations", "tv_genre_translations")
# fmt: on

# Per language: "Season {n}", the specials season, "Episode {n}", a one-line biography over {name},
# and the names of TV-only genres in TV_ONLY_GENRES order.
TV_ONLY_GENRES: tuple[int, ...] = (10759, 10762, 10763, 10764, 10765, 10766, 10767, 10768)
# fmt: off
LOCAL: dict[str, tuple[str, str, str, str, tuple[str, ...]]] = {
    "en": ("Season {n}", "Specials", "Episode {n}", "{name} is a film and television professional.",
           ("Action & Adventure", "Kids", "News", "Reality", "Sci-Fi & Fantasy", "Soap", "Talk", "War & Politics")),
    "es": ("Temporada {n}", "Especiales", "Episodio {n}", "{name} es un profesional del cine y la televisión.",
           ("Acción y Aventura", "Infantil", "Noticias", "Reality", "Ciencia ficción y fantasía", "Telenovela",
            "Entrevistas", "Bélica y política")),
    "fr": ("Saison {n}", "Épisodes spéciaux", "Épisode {n}", "{name} travaille pour le cinéma et la télévision.",
           ("Action & Aventure", "Enfants", "Actualités", "Téléréalité", "Science-Fiction & Fantastique",
            "Feuilleton", "Talk-show", "Guerre & Politique")),
    "de": ("Staffel {n}", "Specials", "Episode {n}", "{name} arbeitet für Film und Fernsehen.",
           ("Action & Abenteuer", "Kinder", "Nachrichten", "Reality-TV", "Science-Fiction & Fantasy",
            "Seifenoper", "Talkshow", "Krieg & Politik")),
    "it": ("Stagione {n}", "Speciali", "Episodio {n}", "{name} lavora nel cinema e nella televisione.",
           ("Azione e avventura", "Bambini", "Notiziario", "Reality", "Fantascienza e fantasy", "Soap opera",
            "Talk show", "Guerra e politica")),
    "pt": ("Temporada {n}", "Especiais", "Episódio {n}", "{name} trabalha com cinema e televisão.",
           ("Ação e Aventura", "Infantil", "Notícias", "Reality", "Ficção Científica e Fantasia", "Novela",
            "Talk Show", "Guerra e Política")),
    "ru": ("Сезон {n}", "Спецвыпуски", "Эпизод {n}", "{name} работает в кино и на телевидении.",
           ("Боевик и Приключения", "Детский", "Новости", "Реалити-шоу", "НФ и Фэнтези", "Мыльная опера",
            "Ток-шоу", "Война и Политика")),
    "ja": ("シーズン{n}", "特別編", "第{n}話", "{name}は映画とテレビで活躍している。",
           ("アクション＆アドベンチャー", "キッズ", "ニュース", "リアリティ", "SF＆ファンタジー", "ソープ",
            "トーク", "戦争＆政治")),
    "ko": ("시즌 {n}", "스페셜", "{n}화", "{name}은(는) 영화와 텔레비전 분야에서 활동하고 있다.",
           ("액션 & 어드벤처", "키즈", "뉴스", "리얼리티", "SF & 판타지", "연속극", "토크", "전쟁 & 정치")),
    "zh": ("第 {n} 季", "特别篇", "第 {n} 集", "{name}是一位活跃于电影和电视领域的从业者。",
           ("动作冒险", "儿童", "新闻", "真人秀", "科幻奇幻", "肥皂剧", "脱口秀", "战争与政治")),
    "hi": ("सीज़न {n}", "विशेष", "एपिसोड {n}", "{name} फ़िल्म और टेलीविज़न में काम करते हैं।",
           ("एक्शन और एडवेंचर", "बच्चे", "समाचार", "रियलिटी", "साइंस-फ़िक्शन और फ़ैंटेसी", "सोप", "टॉक",
            "युद्ध और राजनीति")),
    "ar": ("الموسم {n}", "حلقات خاصة", "الحلقة {n}", "{name} يعمل في مجال السينما والتلفزيون.",
           ("حركة ومغامرة", "أطفال", "أخبار", "واقعي", "خيال علمي وفانتازيا", "مسلسل درامي", "حواري",
            "حرب وسياسة")),
    "tr": ("Sezon {n}", "Özel Bölümler", "Bölüm {n}", "{name} sinema ve televizyonda çalışıyor.",
           ("Aksiyon & Macera", "Çocuk", "Haber", "Gerçeklik", "Bilim Kurgu & Fantazi", "Pembe Dizi", "Talk",
            "Savaş & Politik")),
    "pl": ("Sezon {n}", "Odcinki specjalne", "Odcinek {n}", "{name} pracuje w filmie i telewizji.",
           ("Akcja i Przygoda", "Dla dzieci", "Wiadomości", "Reality", "Sci-Fi & Fantasy", "Opera mydlana",
            "Talk-show", "Wojna i Polityka")),
}
# fmt: on
# How likely a popular series (or person) is translated into each language; the long tail far less.
# fmt: off
SERIES_RATES: dict[str, float] = {
    "es": 0.9, "fr": 0.85, "de": 0.85, "ru": 0.8, "pt": 0.8, "it": 0.7, "zh": 0.65, "ja": 0.6,
    "ko": 0.6, "pl": 0.55, "tr": 0.45, "ar": 0.35, "hi": 0.2,
}
# fmt: on
EPISODE_TITLE_RATE = 0.6  # a translated episode has a real title, else "Episode N" in the language
EPISODE_OVERVIEW_RATE = 0.5
PERSON_RATE_SCALE = 0.35  # biographies are translated less often than series


def _rank(values: np.ndarray) -> np.ndarray:
    """0 for the smallest value, 1 for the largest."""
    rank = np.empty(len(values))
    rank[np.argsort(values, kind="stable")] = np.arange(len(values))
    return rank / max(1, len(values) - 1)


def _numbered(template: str, numbers: np.ndarray) -> pa.Array:
    before, _, after = template.partition("{n}")
    return cat(before, pa.array(numbers.astype(str), pa.string()), after)


def translation_tables(tables: dict[str, pa.Table], seed: int) -> dict[str, pa.Table]:
    """The five tables of TABLES for the generated tv_series, tv_seasons, tv_episodes and people."""
    series, seasons, episodes = tables["tv_series"], tables["tv_seasons"], tables["tv_episodes"]
    rng = rng_for(seed, "tv_translations")
    ids = series.column("id").to_numpy()
    original = series.column("original_language").to_numpy(zero_copy_only=False).astype(str)
    rank = _rank(series.column("popularity").to_numpy())
    n = len(ids)
    # Seasons and episodes find their series' row (and so its translation mask) by id.
    season_row = rows_of(ids, seasons.column("series_id").to_numpy())
    episode_row = rows_of(ids, episodes.column("series_id").to_numpy())
    season_numbers = seasons.column("season_number").to_numpy()
    episode_numbers = episodes.column("episode_number").to_numpy()

    has_tagline = pc.not_equal(series.column("tagline"), "").to_numpy(zero_copy_only=False)
    keep_english = (original == "en") | (rng.random(n) < 0.6 + 0.35 * rank)
    series_blocks = [_series_rows(series, "en", "US", keep_english)]
    season_blocks = [
        _season_rows(seasons, "en", "US", keep_english[season_row], seasons.column("name"), seasons.column("overview"))
    ]
    episode_blocks = [
        _episode_rows(
            episodes, "en", "US", keep_english[episode_row], episodes.column("name"), episodes.column("overview")
        )
    ]
    for lang in lang_module.LANGUAGES:
        code = lang.iso_639_1
        if code == "en":
            continue
        season_word, specials, episode_word, _, _ = LOCAL[code]
        is_original = original == code
        available = is_original | (rng.random(n) < SERIES_RATES[code] * (0.05 + 0.95 * rank**1.5))
        name = pa.array(
            np.where(
                is_original,
                series.column("original_name").to_numpy(zero_copy_only=False),
                lang_module.titles(lang, rng, n).to_numpy(zero_copy_only=False),
            ),
            pa.string(),
        )
        overview = pc.if_else(pa.array(rng.random(n) < 0.85), lang_module.overviews(lang, rng, n), "")
        tagline = pc.if_else(pa.array(has_tagline), lang_module.taglines(lang, rng, n), "")
        homepage = pc.if_else(pa.array(is_original), series.column("homepage").combine_chunks(), "")
        series_blocks.append(
            pa.table(
                {
                    "series_id": ids,
                    "iso_639_1": [code] * n,
                    "iso_3166_1": [lang.iso_3166_1] * n,
                    "name": name,
                    "overview": overview,
                    "tagline": tagline,
                    "homepage": homepage,
                }
            ).filter(pa.array(available))
        )

        s_count = seasons.num_rows
        season_name = pc.if_else(pa.array(season_numbers == 0), specials, _numbered(season_word, season_numbers))
        season_overview = pc.if_else(pa.array(rng.random(s_count) < 0.5), lang_module.overviews(lang, rng, s_count), "")
        season_blocks.append(
            _season_rows(seasons, code, lang.iso_3166_1, available[season_row], season_name, season_overview)
        )

        e_count = episodes.num_rows
        titled = rng.random(e_count) < EPISODE_TITLE_RATE
        episode_name = pc.if_else(
            pa.array(titled), lang_module.titles(lang, rng, e_count), _numbered(episode_word, episode_numbers)
        )
        episode_overview = pc.if_else(
            pa.array(rng.random(e_count) < EPISODE_OVERVIEW_RATE), lang_module.overviews(lang, rng, e_count), ""
        )
        episode_blocks.append(
            _episode_rows(episodes, code, lang.iso_3166_1, available[episode_row], episode_name, episode_overview)
        )
    return {
        "series_translations": pa.concat_tables(series_blocks),
        "season_translations": pa.concat_tables(season_blocks),
        "episode_translations": pa.concat_tables(episode_blocks),
        "person_translations": _person_rows(tables["people"], rng_for(seed, "person_translations")),
        "tv_genre_translations": _tv_genre_rows(),
    }


def _series_rows(series: pa.Table, code: str, region: str, keep: np.ndarray) -> pa.Table:
    n = series.num_rows
    return pa.table(
        {
            "series_id": series.column("id"),
            "iso_639_1": [code] * n,
            "iso_3166_1": [region] * n,
            "name": series.column("name"),
            "overview": series.column("overview"),
            "tagline": series.column("tagline"),
            "homepage": series.column("homepage"),
        }
    ).filter(pa.array(keep))


def _season_rows(seasons: pa.Table, code: str, region: str, keep: np.ndarray, name, overview) -> pa.Table:
    n = seasons.num_rows
    return pa.table(
        {
            "season_id": seasons.column("id"),
            "iso_639_1": [code] * n,
            "iso_3166_1": [region] * n,
            "name": name,
            "overview": overview,
        }
    ).filter(pa.array(keep))


def _episode_rows(episodes: pa.Table, code: str, region: str, keep: np.ndarray, name, overview) -> pa.Table:
    n = episodes.num_rows
    return pa.table(
        {
            "episode_id": episodes.column("id"),
            "iso_639_1": [code] * n,
            "iso_3166_1": [region] * n,
            "name": name,
            "overview": overview,
        }
    ).filter(pa.array(keep))


def _person_rows(people: pa.Table, rng: np.random.Generator) -> pa.Table:
    """English biographies as generated; other languages for people with one, more often when popular."""
    n = people.num_rows
    has_biography = pc.not_equal(people.column("biography"), "").to_numpy(zero_copy_only=False)
    rank = _rank(people.column("popularity").to_numpy())
    blocks = [
        pa.table(
            {
                "person_id": people.column("id"),
                "iso_639_1": ["en"] * n,
                "iso_3166_1": ["US"] * n,
                "biography": people.column("biography"),
            }
        ).filter(pa.array(has_biography))
    ]
    for lang in lang_module.LANGUAGES:
        if lang.iso_639_1 == "en":
            continue
        rate = SERIES_RATES[lang.iso_639_1] * PERSON_RATE_SCALE * (0.1 + 0.9 * rank**2)
        available = has_biography & (rng.random(n) < rate)
        before, _, after = LOCAL[lang.iso_639_1][3].partition("{name}")
        blocks.append(
            pa.table(
                {
                    "person_id": people.column("id"),
                    "iso_639_1": [lang.iso_639_1] * n,
                    "iso_3166_1": [lang.iso_3166_1] * n,
                    "biography": cat(before, people.column("name"), after),
                }
            ).filter(pa.array(available))
        )
    return pa.concat_tables(blocks)


def _tv_genre_rows() -> pa.Table:
    """Every TV genre in every language: TV-only names from LOCAL, shared ones as the movie list has them."""
    movie_position = {genre_id: i for i, (genre_id, _) in enumerate(vocab.GENRES)}
    ids, codes, names = [], [], []
    for lang in lang_module.LANGUAGES:
        local = dict(zip(TV_ONLY_GENRES, LOCAL[lang.iso_639_1][4]))
        for genre_id, _ in tv_vocab.TV_GENRES:
            ids.append(genre_id)
            codes.append(lang.iso_639_1)
            names.append(local[genre_id] if genre_id in local else lang.genres[movie_position[genre_id]])
    return pa.table({"genre_id": pa.array(ids, pa.int64()), "iso_639_1": codes, "name": names})

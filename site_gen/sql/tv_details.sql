-- /3/tv/{series_id}: TMDB's tv-series-details document in every language variant (see
-- site_gen/languages.py): the default language for every series, each other served language the
-- series is translated into ('/3/tv/1.de-DE'), and '.und' for every series. Keys in TMDB's order.
-- Untranslated text falls back like TMDB: name -> original_name, overview/tagline -> "". Season and
-- episode names follow the variant's language where translated, else the catalogue's name. The
-- specials season is listed in `seasons` but, like TMDB, not counted in number_of_seasons/_episodes.
WITH variants AS (
    SELECT s.id AS series_id, v.suffix, v.iso_639_1, v.iso_3166_1, v.genre_language
    FROM tv_series s JOIN render_variants v ON v.kind IN ('default', 'und')
    WHERE in_scope('series', s.id)
    UNION ALL
    SELECT t.series_id, v.suffix, v.iso_639_1, v.iso_3166_1, v.genre_language
    FROM series_translations t
    JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
    WHERE in_scope('series', t.series_id)
),
season_lists AS (
    SELECT x.series_id, x.suffix,
           ordered_values(list({'k': se.season_number,
                                'v': {'air_date': coalesce(CAST(se.air_date AS VARCHAR), ''),
                                      'episode_count': coalesce(c.episode_count, 0), 'id': se.id,
                 'name': coalesce(nullif(st.name, ''), se.name), 'overview': coalesce(st.overview, ''),
                 'poster_path': se.poster_path, 'season_number': se.season_number,
                 'vote_average': se.vote_average}})) AS seasons
    FROM variants x
    JOIN tv_seasons se ON se.series_id = x.series_id
    LEFT JOIN season_translations st
        ON st.season_id = se.id AND st.iso_639_1 = x.iso_639_1 AND st.iso_3166_1 = x.iso_3166_1
    LEFT JOIN season_episode_counts c ON c.series_id = se.series_id AND c.season_number = se.season_number
    GROUP BY x.series_id, x.suffix
),
summaries AS (
    -- last_episode_to_air / next_episode_to_air with the episode's text in the variant's language.
    SELECT x.series_id, x.suffix, e.id AS episode_id,
           struct_update(es.summary, name := coalesce(nullif(et.name, ''), e.name),
                         overview := coalesce(et.overview, '')) AS summary
    FROM variants x
    -- Two equi-joins, not `e.id IN (last, next)`: that became a nested loop join (69 s at 10k series).
    JOIN (SELECT id AS series_id, last_episode_id AS episode_id FROM tv_series
          UNION SELECT id, next_episode_id FROM tv_series) s ON s.series_id = x.series_id
    JOIN tv_episodes e ON e.id = s.episode_id
    JOIN episode_summaries es ON es.episode_id = e.id
    LEFT JOIN episode_translations et
        ON et.episode_id = e.id AND et.iso_639_1 = x.iso_639_1 AND et.iso_3166_1 = x.iso_3166_1
)
SELECT
    '/3/tv/' || s.id || x.suffix AS uri,
    ({
        'adult': s.adult,
        'backdrop_path': s.backdrop_path,
        'created_by': coalesce(cb.created_by, []),
        'episode_run_time': s.episode_run_time,
        'first_air_date': coalesce(CAST(s.first_air_date AS VARCHAR), ''),  -- TMDB's "" for no date
        'genres': coalesce(list_transform(g.genre_ids, lambda i: {'id': i, 'name': gn.names[i]}), []),
        'homepage': coalesce(nullif(t.homepage, ''), s.homepage, ''),
        'id': s.id,
        'in_production': s.in_production,
        'languages': s.languages,
        'last_air_date': s.last_air_date,
        'last_episode_to_air': le.summary,
        'name': coalesce(nullif(t.name, ''), s.original_name),
        'next_episode_to_air': ne.summary,
        'networks': coalesce(n.networks, []),
        'number_of_episodes': coalesce(sl.number_of_episodes, 0),
        'number_of_seasons': coalesce(sl.number_of_seasons, 0),
        'origin_country': s.origin_country,
        'original_language': s.original_language,
        'original_name': s.original_name,
        'overview': coalesce(t.overview, ''),
        'popularity': s.popularity,
        'poster_path': s.poster_path,
        'production_companies': coalesce(pc.production_companies, []),
        'production_countries': coalesce(pn.production_countries, []),
        'seasons': coalesce(vs.seasons, []),
        'spoken_languages': coalesce(lg.spoken_languages, []),
        'status': s.status,
        'tagline': coalesce(t.tagline, ''),
        'type': s.type,
        'vote_average': s.vote_average,
        'vote_count': s.vote_count
    }) AS doc
FROM variants x
JOIN tv_series s ON s.id = x.series_id
LEFT JOIN series_translations t
    ON t.series_id = s.id AND t.iso_639_1 = x.iso_639_1 AND t.iso_3166_1 = x.iso_3166_1
LEFT JOIN tv_genre_name_maps gn ON gn.iso_639_1 = x.genre_language
LEFT JOIN series_created_by_lists cb ON cb.series_id = s.id
LEFT JOIN series_genre_lists g ON g.series_id = s.id
LEFT JOIN summaries le ON le.series_id = s.id AND le.suffix = x.suffix AND le.episode_id = s.last_episode_id
LEFT JOIN summaries ne ON ne.series_id = s.id AND ne.suffix = x.suffix AND ne.episode_id = s.next_episode_id
LEFT JOIN series_network_lists n ON n.series_id = s.id
LEFT JOIN series_season_lists sl ON sl.series_id = s.id
LEFT JOIN season_lists vs ON vs.series_id = s.id AND vs.suffix = x.suffix
LEFT JOIN series_company_lists pc ON pc.series_id = s.id
LEFT JOIN series_country_lists pn ON pn.series_id = s.id
LEFT JOIN series_language_lists lg ON lg.series_id = s.id

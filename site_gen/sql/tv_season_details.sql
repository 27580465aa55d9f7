-- /3/tv/{series_id}/season/{season_number}: the season with every episode (crew and guest stars
-- included, as TMDB embeds them), keys in TMDB's order; `networks` are the series' networks. One
-- document per language variant: the default language and '.und' for every season, each other
-- served language the season is translated into. Untranslated names keep the catalogue's name
-- ("Season 1"), untranslated overviews are "", for the season and each embedded episode alike.
WITH variants AS (
    SELECT se.id AS season_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM tv_seasons se JOIN render_variants v ON v.kind IN ('default', 'und')
    WHERE in_scope('series', se.series_id)
    UNION ALL
    SELECT t.season_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM season_translations t
    JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
),
episode_lists AS (
    SELECT x.season_id, x.suffix,
           ordered_values(list({'k': e.episode_number,
                                'v': {'air_date': coalesce(CAST(e.air_date AS VARCHAR), ''),
                                      'episode_number': e.episode_number, 'episode_type': e.episode_type,
                 'id': e.id, 'name': coalesce(nullif(et.name, ''), e.name), 'overview': coalesce(et.overview, ''),
                 'production_code': e.production_code, 'runtime': e.runtime, 'season_number': e.season_number,
                 'show_id': e.series_id, 'still_path': e.still_path, 'vote_average': e.vote_average,
                 'vote_count': e.vote_count, 'crew': coalesce(j.crew, '[]'::JSON), 'guest_stars': coalesce(j.guest_stars, '[]'::JSON)}})) AS episodes
    FROM variants x
    JOIN tv_seasons se ON se.id = x.season_id
    JOIN tv_episodes e ON e.series_id = se.series_id AND e.season_number = se.season_number
    LEFT JOIN episode_translations et
        ON et.episode_id = e.id AND et.iso_639_1 = x.iso_639_1 AND et.iso_3166_1 = x.iso_3166_1
    LEFT JOIN episode_credit_json j ON j.episode_id = e.id  -- tv_episode_credit_json.sql
    WHERE in_scope('series', se.series_id)
    GROUP BY x.season_id, x.suffix
)
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number || x.suffix AS uri,
    ({
        '_id': se.object_id,
        'air_date': coalesce(CAST(se.air_date AS VARCHAR), ''),
        'episodes': coalesce(el.episodes, []),
        'name': coalesce(nullif(st.name, ''), se.name),
        'networks': coalesce(n.networks, []),
        'overview': coalesce(st.overview, ''),
        'id': se.id,
        'poster_path': se.poster_path,
        'season_number': se.season_number,
        'vote_average': se.vote_average
    }) AS doc
FROM variants x
JOIN tv_seasons se ON se.id = x.season_id
LEFT JOIN season_translations st
    ON st.season_id = se.id AND st.iso_639_1 = x.iso_639_1 AND st.iso_3166_1 = x.iso_3166_1
LEFT JOIN episode_lists el ON el.season_id = se.id AND el.suffix = x.suffix
LEFT JOIN series_network_lists n ON n.series_id = se.series_id
WHERE in_scope('series', se.series_id)

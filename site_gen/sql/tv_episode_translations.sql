-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}/translations: every translation
-- of the episode; "id" is the episode's own id, as at TMDB.
SELECT
    '/3/tv/' || e.series_id || '/season/' || e.season_number || '/episode/' || e.episode_number
        || '/translations' AS uri,
    ({
        'id': e.id,
        'translations': coalesce(ordered_values(list({'k1': t.iso_639_1, 'k2': t.iso_3166_1, 'v': {
            'iso_3166_1': t.iso_3166_1, 'iso_639_1': t.iso_639_1, 'name': l.name, 'english_name': l.english_name,
            'data': {'name': t.name, 'overview': t.overview}
        }}) FILTER (WHERE t.episode_id IS NOT NULL)), [])
    }) AS doc
FROM tv_episodes e
LEFT JOIN episode_translations t ON t.episode_id = e.id
LEFT JOIN languages l ON l.iso_639_1 = t.iso_639_1
WHERE in_scope('series', e.series_id)
GROUP BY e.id, e.series_id, e.season_number, e.episode_number

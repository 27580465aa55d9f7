-- /3/tv/{series_id}/season/{season_number}/translations: every translation of the season; "id" is
-- the season's own id, as at TMDB.
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number || '/translations' AS uri,
    ({
        'id': se.id,
        'translations': coalesce(list({
            'iso_3166_1': t.iso_3166_1, 'iso_639_1': t.iso_639_1, 'name': l.name, 'english_name': l.english_name,
            'data': {'name': t.name, 'overview': t.overview}
        } ORDER BY t.iso_639_1, t.iso_3166_1) FILTER (WHERE t.season_id IS NOT NULL), [])
    }) AS doc
FROM tv_seasons se
LEFT JOIN season_translations t ON t.season_id = se.id
LEFT JOIN languages l ON l.iso_639_1 = t.iso_639_1
WHERE in_scope('series', se.series_id)
GROUP BY se.id, se.series_id, se.season_number

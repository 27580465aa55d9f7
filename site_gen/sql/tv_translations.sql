-- /3/tv/{series_id}/translations: every catalogue translation of the series, whatever languages are
-- served, ordered like TMDB (language, then country).
SELECT
    '/3/tv/' || s.id || '/translations' AS uri,
    ({
        'id': s.id,
        'translations': coalesce(ordered_values(list({'k1': t.iso_639_1, 'k2': t.iso_3166_1, 'v': {
            'iso_3166_1': t.iso_3166_1, 'iso_639_1': t.iso_639_1, 'name': l.name, 'english_name': l.english_name,
            'data': {'name': t.name, 'overview': t.overview, 'homepage': t.homepage, 'tagline': t.tagline}
        }}) FILTER (WHERE t.series_id IS NOT NULL)), [])
    }) AS doc
FROM tv_series s
LEFT JOIN series_translations t ON t.series_id = s.id
LEFT JOIN languages l ON l.iso_639_1 = t.iso_639_1
WHERE in_scope('series', s.id)
GROUP BY s.id

-- /3/movie/{movie_id}/translations: every catalogue translation of the film, whatever languages are
-- served, ordered like TMDB (language, then country). TMDB's per-translation runtime is 0 except
-- where the record is the film's own (original language) or the English one.
SELECT
    '/3/movie/' || m.id || '/translations' AS uri,
    ({
        'id': m.id,
        'translations': coalesce(ordered_values(list({'k1': t.iso_639_1, 'k2': t.iso_3166_1, 'v': {
            'iso_3166_1': t.iso_3166_1, 'iso_639_1': t.iso_639_1, 'name': l.name, 'english_name': l.english_name,
            'data': {
                'homepage': t.homepage, 'overview': t.overview,
                'runtime': CASE WHEN t.iso_639_1 IN (m.original_language, 'en') THEN m.runtime ELSE 0 END,
                'tagline': t.tagline, 'title': t.title
            }
        }}) FILTER (WHERE t.movie_id IS NOT NULL)), [])
    }) AS doc
FROM movies m
LEFT JOIN movie_translations t ON t.movie_id = m.id
LEFT JOIN languages l ON l.iso_639_1 = t.iso_639_1
WHERE in_scope('movie', m.id)
GROUP BY m.id

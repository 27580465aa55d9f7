-- /3/genre/tv/list: every TV genre, alphabetical by name like TMDB, in the default language (no
-- suffix) and each other served language that has TV genre names ('/3/genre/tv/list.ja-JP').
-- No '.und' variant: a language without names is served the default list.
SELECT
    '/3/genre/tv/list' || v.suffix AS uri,
    ({'genres': list({'id': g.id, 'name': coalesce(gt.name, g.name)}
                                   ORDER BY coalesce(gt.name, g.name), g.id)}) AS doc
FROM render_variants v
CROSS JOIN tv_genres g
LEFT JOIN tv_genre_translations gt ON gt.genre_id = g.id AND gt.iso_639_1 = v.iso_639_1
WHERE v.kind = 'default'
   OR (v.kind = 'other' AND v.iso_639_1 IN (SELECT iso_639_1 FROM tv_genre_translations))
GROUP BY v.suffix

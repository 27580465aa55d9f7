-- /3/collection/{collection_id}/translations: every catalogue translation of the collection, in
-- TMDB's shape (data.title is the translated name) and order (language, then country).
SELECT
    '/3/collection/' || c.id || '/translations' AS uri,
    ({
        'id': c.id,
        'translations': coalesce(list({
            'iso_3166_1': t.iso_3166_1, 'iso_639_1': t.iso_639_1, 'name': l.name, 'english_name': l.english_name,
            'data': {'title': t.name, 'overview': t.overview, 'homepage': coalesce(t.homepage, '')}
        } ORDER BY t.iso_639_1, t.iso_3166_1) FILTER (WHERE t.collection_id IS NOT NULL), [])
    }) AS doc
FROM collections c
LEFT JOIN collection_translations t ON t.collection_id = c.id
LEFT JOIN languages l ON l.iso_639_1 = t.iso_639_1
WHERE in_scope('collection', c.id)
GROUP BY c.id

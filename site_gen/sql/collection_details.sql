-- /3/collection/{collection_id} in every language variant at once (see site_gen/languages.py): the
-- default language for every collection, each other served language the collection is translated
-- into ('/3/collection/10.de-DE'), and '.und' for every collection. Untranslated names fall back to
-- the catalogue's name, overviews to "". Parts carry their own translation in the variant's language
-- (or the original title and an empty overview), ordered by release date (undated last), then id.
-- TMDB's schema lists TV-style name/original_name for parts; the real API sends the movie-style
-- title/original_title too, so parts carry both. In a rebuild only the collections in scope are
-- rendered (site_gen/scope.py); the rest keep their previous documents.
WITH variants AS (
    SELECT c.id AS collection_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM collections c JOIN render_variants v ON v.kind IN ('default', 'und')
    WHERE in_scope('collection', c.id)
    UNION ALL
    SELECT t.collection_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM collection_translations t
    JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
    WHERE in_scope('collection', t.collection_id)
),
parts AS (
    SELECT x.collection_id, x.suffix,
           list({
               'adult': m.adult, 'backdrop_path': m.backdrop_path, 'id': m.id,
               'title': coalesce(nullif(t.title, ''), m.original_title),
               'original_title': m.original_title,
               'name': coalesce(nullif(t.title, ''), m.original_title),
               'original_name': m.original_title,
               'overview': coalesce(t.overview, ''), 'poster_path': m.poster_path,
               'media_type': 'movie', 'original_language': m.original_language,
               'genre_ids': coalesce(g.genre_ids, []), 'popularity': m.popularity,
               'release_date': coalesce(CAST(m.release_date AS VARCHAR), ''), 'video': m.video,
               'vote_average': m.vote_average, 'vote_count': m.vote_count
           } ORDER BY m.release_date NULLS LAST, m.id) AS parts
    FROM variants x
    JOIN movies m ON m.collection_id = x.collection_id
    LEFT JOIN movie_translations t
        ON t.movie_id = m.id AND t.iso_639_1 = x.iso_639_1 AND t.iso_3166_1 = x.iso_3166_1
    LEFT JOIN movie_genre_lists g ON g.movie_id = m.id
    GROUP BY x.collection_id, x.suffix
)
SELECT
    '/3/collection/' || c.id || x.suffix AS uri,
    ({
        'id': c.id,
        'name': coalesce(nullif(ct.name, ''), c.name),
        'original_language': c.original_language,
        'original_name': c.name,
        'overview': coalesce(ct.overview, ''),
        'poster_path': c.poster_path,
        'backdrop_path': c.backdrop_path,
        'parts': coalesce(p.parts, [])
    }) AS doc
FROM variants x
JOIN collections c ON c.id = x.collection_id
LEFT JOIN collection_translations ct
    ON ct.collection_id = c.id AND ct.iso_639_1 = x.iso_639_1 AND ct.iso_3166_1 = x.iso_3166_1
LEFT JOIN parts p ON p.collection_id = c.id AND p.suffix = x.suffix

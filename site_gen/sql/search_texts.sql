-- Titles and overviews in each served language other than the default, for search results in
-- that language: the rule of the details documents' variants (movie_details.sql, tv_details.sql,
-- collection_details.sql): the translation's title, else the original; its overview, else "".
-- A title with no translation in a language shows the original title and an empty overview there,
-- as its details' `.und` variant does (edge/search_index.py applies that).
SELECT 'movie' AS kind, t.movie_id AS id, v.suffix,
       coalesce(nullif(t.title, ''), m.original_title) AS title, coalesce(t.overview, '') AS overview
FROM movie_translations t
JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
JOIN movies m ON m.id = t.movie_id
UNION ALL
SELECT 'tv', t.series_id, v.suffix, coalesce(nullif(t.name, ''), s.original_name), coalesce(t.overview, '')
FROM series_translations t
JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
JOIN tv_series s ON s.id = t.series_id
UNION ALL
SELECT 'collection', t.collection_id, v.suffix, coalesce(nullif(t.name, ''), c.name), coalesce(t.overview, '')
FROM collection_translations t
JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
JOIN collections c ON c.id = t.collection_id

-- Collections for the search index: the catalogue's name and every translated one; ranked by their
-- most popular film; the item in the default language (collection_details.sql's fallbacks).
WITH names AS (
    SELECT collection_id AS id, list(name) AS names FROM collection_translations WHERE name <> '' GROUP BY collection_id
), films AS (
    SELECT collection_id AS id, max(popularity) AS popularity, bool_or(adult) AS adult
    FROM movies WHERE collection_id IS NOT NULL GROUP BY collection_id
)
SELECT c.id, coalesce(f.popularity, 0) AS popularity,
       list_prepend(c.name, coalesce(n.names, [])) AS names,
       [] ::VARCHAR[] AS filters,
       to_json({'adult': false, 'backdrop_path': c.backdrop_path, 'id': c.id,
                'name': coalesce(nullif(t.name, ''), c.name), 'original_language': c.original_language,
                'original_name': c.name, 'overview': coalesce(t.overview, ''),
                'poster_path': c.poster_path})::VARCHAR AS item,
       NULL::VARCHAR[] AS known_for
FROM collections c
LEFT JOIN names n ON n.id = c.id
LEFT JOIN films f ON f.id = c.id
LEFT JOIN collection_translations t
    ON t.collection_id = c.id AND t.iso_639_1 = getvariable('iso_639_1') AND t.iso_3166_1 = getvariable('iso_3166_1')

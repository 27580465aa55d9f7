-- Keywords for the search index (the film keywords /3/search/keyword and /3/keyword/{id} share),
-- ranked by how many films carry them.
WITH used AS (
    SELECT keyword_id AS id, count(*) AS films FROM movie_keywords GROUP BY keyword_id
)
SELECT k.id, coalesce(u.films, 0)::DOUBLE AS popularity, [k.name] AS names, []::VARCHAR[] AS filters,
       to_json({'id': k.id, 'name': k.name})::VARCHAR AS item,
       NULL::VARCHAR[] AS known_for
FROM keywords k
LEFT JOIN used u ON u.id = k.id

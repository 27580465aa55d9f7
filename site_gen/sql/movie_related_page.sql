-- A table macro for /3/movie/{movie_id}/similar and /recommendations (`which`): up to 20 films from
-- movie_related (032_movie_derived.sql) as movie_list_results items, page 1 only. TMDB's body has
-- no "id"; ours leads with it so the edge can splice append_to_response.
CREATE OR REPLACE TEMP MACRO movie_related_page(which) AS TABLE
SELECT
    '/3/movie/' || m.id || '/' || which AS uri,
    ({
        'id': m.id,
        'page': 1,
        'results': coalesce(r.results, []),
        'total_pages': CASE WHEN r.results IS NULL THEN 0 ELSE 1 END,
        'total_results': coalesce(len(r.results), 0)
    }) AS doc
FROM movies m
LEFT JOIN (
    SELECT rel.movie_id, list(l.result ORDER BY rel.ord) AS results
    FROM movie_related rel JOIN movie_list_results l ON l.id = rel.other_id
    WHERE rel.kind = which AND in_scope('movie', rel.movie_id)
    GROUP BY rel.movie_id
) r ON r.movie_id = m.id
WHERE in_scope('movie', m.id)

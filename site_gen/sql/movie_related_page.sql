-- A table macro for /3/movie/{movie_id}/similar and /recommendations (`which`): up to 20 films from
-- movie_related (032_movie_derived.sql) as movie_list_results items, page 1 only. The document is a
-- composite: each item is a reference (item_ref) to the film's item document, serialised and checked
-- once per film (documents.checked_items) and spliced when served (marquee/packs.py). TMDB's body
-- has no "id"; ours leads with it so the edge can splice append_to_response.
CREATE OR REPLACE TEMP MACRO movie_related_page(which) AS TABLE
SELECT
    '/3/movie/' || m.id || '/' || which AS uri,
    ({
        'id': m.id,
        'page': 1,
        'results': CAST('[' || coalesce(r.results, '') || ']' AS JSON),
        'total_pages': CASE WHEN r.results IS NULL THEN 0 ELSE 1 END,
        'total_results': coalesce(r.total, 0)
    }) AS doc
FROM movies m
LEFT JOIN (
    SELECT rel.movie_id, array_to_string(ordered_values(list({'k': rel.ord,
                                                              'v': item_ref('movie', rel.other_id)})), ',') AS results,
           count(*) AS total
    FROM movie_related rel JOIN movie_list_results l ON l.id = rel.other_id
    WHERE rel.kind = which AND in_scope('movie', rel.movie_id)
    GROUP BY rel.movie_id
) r ON r.movie_id = m.id
WHERE in_scope('movie', m.id)

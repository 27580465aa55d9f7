-- /3/tv/{series_id}/recommendations: series that share keywords, networks or genres with this one
-- (keywords and networks weigh more), then the more popular; one page of at most 20.
-- Candidates are neighbours in each feature's popularity list (tv_neighbours.sql); each one's score
-- is the summed weight of every feature the two really share.
WITH scores AS (
    SELECT c.series_id, c.other_id, sum(fa.weight) AS score
    FROM series_neighbours(false, 10) c
    JOIN series_features fa ON fa.series_id = c.series_id
    JOIN series_features fb ON fb.series_id = c.other_id AND fb.feature = fa.feature
    GROUP BY ALL
),
top AS (  -- the 20 best by score, then standing (tv_neighbours.sql), kept in a heap, not sorted
    SELECT sc.series_id, max_by(sc.other_id, sc.score::BIGINT * 4294967296 - st.standing, 20) AS others
    FROM scores sc JOIN series_standing st ON st.id = sc.other_id
    GROUP BY sc.series_id
),
ranked AS (
    SELECT t.series_id, o.*, t.pos
    FROM (SELECT series_id, unnest(others) AS other_id, generate_subscripts(others, 1) AS pos FROM top) t
    JOIN tv_series_listed o ON o.id = t.other_id
),
lists AS (
    SELECT r.series_id, count(*) AS total,
           ordered_values(list({'k': r.pos,
                                'v': {'adult': r.adult, 'backdrop_path': r.backdrop_path, 'id': r.id,
                                      'name': r.name,
                 'original_language': r.original_language, 'original_name': r.original_name,
                 'overview': r.overview, 'poster_path': r.poster_path, 'media_type': 'tv',
                 'genre_ids': coalesce(g.genre_ids, []), 'popularity': r.popularity,
                 'first_air_date': coalesce(CAST(r.first_air_date AS VARCHAR), ''), 'vote_average': r.vote_average,
                 'vote_count': r.vote_count, 'origin_country': r.origin_country}})) AS results
    FROM ranked r LEFT JOIN series_genre_lists g ON g.series_id = r.id
    GROUP BY r.series_id
)
SELECT
    '/3/tv/' || s.id || '/recommendations' AS uri,
    ({
        'page': 1,
        'results': coalesce(l.results, []),
        'total_pages': 1,
        'total_results': coalesce(l.total, 0)
    }) AS doc
FROM tv_series s
LEFT JOIN lists l ON l.series_id = s.id

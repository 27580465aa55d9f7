-- /3/tv/{series_id}/similar: series sharing the most genres, then the more popular, 20 a page;
-- page 1 is the plain uri, page N the `.pageN` variant. At most MAX 40 results (two pages).
-- Candidates are neighbours in each genre's popularity list (tv_neighbours.sql), ranked by how
-- many genres each really shares with the series.
WITH pairs AS (
    SELECT c.series_id, c.other_id, len(list_intersect(ga.genre_ids, gb.genre_ids)) AS shared
    FROM series_neighbours(true, 40) c
    JOIN series_genre_lists ga ON ga.series_id = c.series_id
    JOIN series_genre_lists gb ON gb.series_id = c.other_id
),
ranked AS (
    SELECT p.series_id, o.*, row_number() OVER (PARTITION BY p.series_id
                                                ORDER BY p.shared DESC, o.popularity DESC, o.id) - 1 AS pos,
           count(*) OVER (PARTITION BY p.series_id) AS total
    FROM pairs p JOIN tv_series_listed o ON o.id = p.other_id
    QUALIFY pos < 40
),
pages AS (
    SELECT r.series_id, r.pos // 20 + 1 AS page, any_value(least(r.total, 40)) AS total,
           list({'adult': r.adult, 'backdrop_path': r.backdrop_path, 'genre_ids': coalesce(g.genre_ids, []),
                 'id': r.id, 'origin_country': r.origin_country, 'original_language': r.original_language,
                 'original_name': r.original_name, 'overview': r.overview, 'popularity': r.popularity,
                 'poster_path': r.poster_path, 'first_air_date': r.first_air_date, 'name': r.name,
                 'vote_average': r.vote_average, 'vote_count': r.vote_count} ORDER BY r.pos) AS results
    FROM ranked r LEFT JOIN series_genre_lists g ON g.series_id = r.id
    GROUP BY r.series_id, page
)
SELECT
    '/3/tv/' || s.id || '/similar' || CASE WHEN coalesce(p.page, 1) = 1 THEN '' ELSE '.page' || p.page END AS uri,
    ({
        'page': coalesce(p.page, 1),
        'results': coalesce(p.results, []),
        'total_pages': CAST(greatest(ceil(coalesce(p.total, 0) / 20), 1) AS BIGINT),
        'total_results': coalesce(p.total, 0)
    }) AS doc
FROM tv_series s
LEFT JOIN pages p ON p.series_id = s.id

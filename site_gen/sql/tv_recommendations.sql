-- /3/tv/{series_id}/recommendations: series that share keywords, networks or genres with this one
-- (keywords and networks weigh more), then the more popular; one page of at most 20.
-- Every pair sharing a genre is quadratic (146 s at 10k series), so, as for films
-- (032_movie_derived.sql), a series is compared with its 10 neighbours on either side, by
-- popularity, in the list of each keyword, network and genre it has; each candidate's score is then
-- the summed weight of every feature the two really share. Keys are feature << 32 | position.
WITH features AS (
    SELECT series_id, keyword_id * 4 AS feature, 3 AS weight FROM series_keywords
    UNION ALL
    SELECT series_id, network_id * 4 + 1, 2 FROM series_networks
    UNION ALL
    SELECT series_id, genre_id * 4 + 2, 1 FROM series_genres
),
positions AS (
    SELECT f.series_id, f.feature * 4294967296
               + row_number() OVER (PARTITION BY f.feature ORDER BY o.popularity DESC NULLS LAST, f.series_id) AS key
    FROM features f LEFT JOIN tv_series_listed o ON o.id = f.series_id
),
targets AS (  -- computed first: a join condition over three relations plans as a cross product
    SELECT a.series_id, a.key + t.o AS target FROM positions a CROSS JOIN range(-10, 11) t(o) WHERE t.o <> 0
),
candidates AS (
    SELECT DISTINCT t.series_id, b.series_id AS other_id
    FROM targets t JOIN positions b ON b.key = t.target
    WHERE b.series_id <> t.series_id
),
scores AS (
    SELECT c.series_id, c.other_id, sum(fa.weight) AS score
    FROM candidates c
    JOIN features fa ON fa.series_id = c.series_id
    JOIN features fb ON fb.series_id = c.other_id AND fb.feature = fa.feature
    GROUP BY ALL
),
ranked AS (
    SELECT sc.series_id, o.*, row_number() OVER (PARTITION BY sc.series_id
                                                 ORDER BY sc.score DESC, o.popularity DESC, o.id) AS pos
    FROM scores sc JOIN tv_series_listed o ON o.id = sc.other_id
    QUALIFY pos <= 20
),
lists AS (
    SELECT r.series_id, count(*) AS total,
           list({'adult': r.adult, 'backdrop_path': r.backdrop_path, 'id': r.id, 'name': r.name,
                 'original_language': r.original_language, 'original_name': r.original_name,
                 'overview': r.overview, 'poster_path': r.poster_path, 'media_type': 'tv',
                 'genre_ids': coalesce(g.genre_ids, []), 'popularity': r.popularity,
                 'first_air_date': r.first_air_date, 'vote_average': r.vote_average,
                 'vote_count': r.vote_count, 'origin_country': r.origin_country} ORDER BY r.pos) AS results
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

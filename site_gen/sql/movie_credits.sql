-- /3/movie/{movie_id}/credits: cast in billing order, crew by department, job, name, credit id.
-- A composite (marquee/packs.py): each credit is the person's item (the person fields TMDB repeats
-- on every credit, original_name too: names are not translated) followed by the credit's own
-- fields (movie_{cast,crew}_entries.sql, serialised and checked once per credit). The lists keep to
-- in_scope() too: a full build renders it in ranges of films (`chunked`), an update only the films it
-- reaches, and neither orders every film's credits (at 1M films, 12.4M cast rows: 62 to 79 CPU
-- seconds whole, 51 to 56 in four ranges; docs/benchmarks.md, session 47).
WITH cast_lists AS (
    SELECT movie_id, array_to_string(ordered_values(list({'k1': by_order, 'k2': by_credit, 'v': entry})), ',') AS "cast"
    FROM movie_cast_entries
    WHERE in_scope('movie', movie_id)
    GROUP BY movie_id
),
crew_lists AS (
    SELECT movie_id, array_to_string(ordered_values(list({'k1': by_department, 'k2': by_job, 'k3': by_name,
                                                          'k4': by_credit, 'v': entry})), ',') AS crew
    FROM movie_crew_entries
    WHERE in_scope('movie', movie_id)
    GROUP BY movie_id
)
SELECT
    '/3/movie/' || m.id || '/credits' AS uri,
    ({
        'id': m.id,
        'cast': CAST('[' || coalesce(cl."cast", '') || ']' AS JSON),
        'crew': CAST('[' || coalesce(rl.crew, '') || ']' AS JSON)
    }) AS doc
FROM movies m
LEFT JOIN cast_lists cl ON cl.movie_id = m.id
LEFT JOIN crew_lists rl ON rl.movie_id = m.id
WHERE in_scope('movie', m.id)

-- /3/movie/{movie_id}/moods (ours): moods derived at build (movie_moods), strongest first.
SELECT
    '/3/movie/' || m.id || '/moods' AS uri,
    encode(to_json({
        'id': m.id,
        'moods': coalesce(d.moods, [])
    })) AS body
FROM movies m
LEFT JOIN (
    SELECT movie_id, list({'name': mood, 'score': score} ORDER BY ord) AS moods
    FROM movie_moods GROUP BY movie_id
) d ON d.movie_id = m.id

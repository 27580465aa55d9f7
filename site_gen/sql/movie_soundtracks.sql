-- /3/movie/{movie_id}/soundtracks (ours): the film's albums (zero or one) with tracks in order.
WITH albums AS (
    SELECT s.movie_id,
           list_sort(list({'id': s.id, 'title': s.title, 'type': s."type", 'label': s.label,
                 'release_date': s.release_date, 'total_tracks': len(t.tracks),
                 'duration_ms': list_sum([x.duration_ms FOR x IN t.tracks]), 'tracks': t.tracks})) AS results
    FROM soundtracks s
    JOIN (
        SELECT soundtrack_id,
               list_sort(list({'number': "number", 'title': title, 'artists': artists, 'duration_ms': duration_ms}))
                   AS tracks
        FROM soundtrack_tracks
        -- only the albums of the films rendered (a rebuild's scope): aggregating every track cost 1 s
        WHERE soundtrack_id IN (SELECT id FROM soundtracks WHERE in_scope('movie', movie_id))
        GROUP BY soundtrack_id
    ) t ON t.soundtrack_id = s.id
    WHERE in_scope('movie', s.movie_id)
    GROUP BY s.movie_id
)
SELECT
    '/3/movie/' || m.id || '/soundtracks' AS uri,
    ({'id': m.id, 'results': coalesce(a.results, [])}) AS doc
FROM movies m
LEFT JOIN albums a ON a.movie_id = m.id
WHERE in_scope('movie', m.id)

-- /3/movie/{movie_id}/moods (ours): moods derived at build (mood_lists, 044_moods.sql), strongest first.
SELECT
    '/3/movie/' || m.id || '/moods' AS uri,
    ({'id': m.id, 'moods': coalesce(d.moods, [])}) AS doc
FROM movies m
LEFT JOIN mood_lists d ON d.owner = 'movie' AND d.owner_id = m.id
WHERE in_scope('movie', m.id)

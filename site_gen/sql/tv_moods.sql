-- /3/tv/{series_id}/moods (ours): moods derived at build (mood_lists, 044_moods.sql), strongest first.
SELECT
    '/3/tv/' || s.id || '/moods' AS uri,
    ({'id': s.id, 'moods': coalesce(d.moods, [])}) AS doc
FROM tv_series s
LEFT JOIN mood_lists d ON d.owner = 'tv' AND d.owner_id = s.id

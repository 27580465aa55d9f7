-- /3/tv/{series_id}/moods (ours): moods derived at build (series_moods), strongest first.
SELECT
    '/3/tv/' || s.id || '/moods' AS uri,
    encode(to_json({
        'id': s.id,
        'moods': coalesce(d.moods, [])
    })) AS body
FROM tv_series s
LEFT JOIN (
    SELECT series_id, list({'name': mood, 'score': score} ORDER BY ord) AS moods
    FROM series_moods GROUP BY series_id
) d ON d.series_id = s.id

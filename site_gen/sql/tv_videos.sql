-- /3/tv/{series_id}/videos: the series-level videos (season and episode videos have their own paths).
SELECT
    '/3/tv/' || s.id || '/videos' AS uri,
    encode(to_json({'id': s.id, 'results': coalesce(v.results, [])})) AS body
FROM tv_series s
LEFT JOIN tv_video_lists v ON v.series_id = s.id AND v.season_number IS NULL

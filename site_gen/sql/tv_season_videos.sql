-- /3/tv/{series_id}/season/{season_number}/videos (id: the season's id)
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number || '/videos' AS uri,
    encode(to_json({'id': se.id, 'results': coalesce(v.results, [])})) AS body
FROM tv_seasons se
LEFT JOIN tv_video_lists v ON v.series_id = se.series_id AND v.season_number = se.season_number
                          AND v.episode_number IS NULL

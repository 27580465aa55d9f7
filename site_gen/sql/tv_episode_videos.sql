-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}/videos (id: the episode's id)
SELECT
    '/3/tv/' || e.series_id || '/season/' || e.season_number || '/episode/' || e.episode_number || '/videos' AS uri,
    encode(to_json({'id': e.id, 'results': coalesce(v.results, [])})) AS body
FROM tv_episodes e
LEFT JOIN tv_video_lists v ON v.series_id = e.series_id AND v.season_number = e.season_number
                          AND v.episode_number = e.episode_number

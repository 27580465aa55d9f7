-- /3/tv/{series_id}/screened_theatrically: the series' episodes shown in cinemas, in airing order.
WITH lists AS (
    SELECT x.series_id,
           list({'id': e.id, 'episode_number': e.episode_number, 'season_number': e.season_number}
                ORDER BY e.season_number, e.episode_number) AS results
    FROM screened_episodes x JOIN tv_episodes e ON e.id = x.episode_id
    GROUP BY x.series_id
)
SELECT
    '/3/tv/' || s.id || '/screened_theatrically' AS uri,
    ({'id': s.id, 'results': coalesce(l.results, [])}) AS doc
FROM tv_series s
LEFT JOIN lists l ON l.series_id = s.id

-- /compat/season/{series_id}/{season_number}: OMDb's season listing (`Season=N` without `Episode`):
-- the series' title, the season, its count of seasons, and each episode's title, ISO air date,
-- number, rating and IMDb id.
SELECT '/compat/season/' || x.series_id || '/' || s.season_number AS uri,
    ({
        'Title': x.title,
        'Season': CAST(s.season_number AS VARCHAR),
        'totalSeasons': CAST(x.seasons AS VARCHAR),
        'Episodes': coalesce((
            SELECT list({'Title': e.name, 'Released': omdb_text(strftime(e.air_date, '%Y-%m-%d')),
                         'Episode': CAST(e.episode_number AS VARCHAR), 'imdbRating': 'N/A',
                         'imdbID': omdb_text(e.imdb_id)} ORDER BY e.episode_number)
            FROM tv_episodes e WHERE e.series_id = s.series_id AND e.season_number = s.season_number), []),
        'Response': 'True'
    }) AS doc
FROM tv_seasons s
JOIN omdb_series_parts x ON x.series_id = s.series_id
WHERE in_scope('series', s.series_id) AND x.imdb_id LIKE 'tt%'

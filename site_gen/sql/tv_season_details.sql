-- /3/tv/{series_id}/season/{season_number}: the season with every episode (crew and guest stars
-- included, as TMDB embeds them), keys in TMDB's order; `networks` are the series' networks.
WITH episode_lists AS (
    SELECT e.series_id, e.season_number,
           list({'air_date': e.air_date, 'episode_number': e.episode_number, 'episode_type': e.episode_type,
                 'id': e.id, 'name': e.name, 'overview': e.overview, 'production_code': e.production_code,
                 'runtime': e.runtime, 'season_number': e.season_number, 'show_id': e.series_id,
                 'still_path': e.still_path, 'vote_average': e.vote_average, 'vote_count': e.vote_count,
                 'crew': coalesce(c.crew, []), 'guest_stars': coalesce(g.guest_stars, [])}
                ORDER BY e.episode_number) AS episodes
    FROM tv_episodes e
    LEFT JOIN episode_crew_lists c ON c.episode_id = e.id
    LEFT JOIN episode_guest_lists g ON g.episode_id = e.id
    GROUP BY e.series_id, e.season_number
)
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number AS uri,
    encode(to_json({
        '_id': se.object_id,
        'air_date': se.air_date,
        'episodes': coalesce(el.episodes, []),
        'name': se.name,
        'networks': coalesce(n.networks, []),
        'overview': se.overview,
        'id': se.id,
        'poster_path': se.poster_path,
        'season_number': se.season_number,
        'vote_average': se.vote_average
    })) AS body
FROM tv_seasons se
LEFT JOIN episode_lists el ON el.series_id = se.series_id AND el.season_number = se.season_number
LEFT JOIN series_network_lists n ON n.series_id = se.series_id

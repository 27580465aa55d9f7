-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}, keys in TMDB's order.
SELECT
    '/3/tv/' || e.series_id || '/season/' || e.season_number || '/episode/' || e.episode_number AS uri,
    encode(to_json({
        'air_date': e.air_date,
        'crew': coalesce(c.crew, []),
        'episode_number': e.episode_number,
        'episode_type': e.episode_type,
        'guest_stars': coalesce(g.guest_stars, []),
        'name': e.name,
        'overview': e.overview,
        'id': e.id,
        'production_code': e.production_code,
        'runtime': e.runtime,
        'season_number': e.season_number,
        'still_path': e.still_path,
        'vote_average': e.vote_average,
        'vote_count': e.vote_count
    })) AS body
FROM tv_episodes e
LEFT JOIN episode_crew_lists c ON c.episode_id = e.id
LEFT JOIN episode_guest_lists g ON g.episode_id = e.id

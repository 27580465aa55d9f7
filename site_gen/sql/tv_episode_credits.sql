-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}/credits: the season's regulars,
-- the episode's crew and its guest stars (id: the episode's id).
SELECT
    '/3/tv/' || e.series_id || '/season/' || e.season_number || '/episode/' || e.episode_number || '/credits' AS uri,
    ({
        'id': e.id,
        'cast': coalesce(sc."cast", []),
        'crew': coalesce(c.crew, []),
        'guest_stars': coalesce(g.guest_stars, [])
    }) AS doc
FROM tv_episodes e
LEFT JOIN season_cast_lists sc ON sc.series_id = e.series_id AND sc.season_number = e.season_number
LEFT JOIN episode_crew_lists c ON c.episode_id = e.id
LEFT JOIN episode_guest_lists g ON g.episode_id = e.id
WHERE in_scope('series', e.series_id)

-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}/credits: the season's regulars,
-- the episode's crew and its guest stars (id: the episode's id).
SELECT
    '/3/tv/' || e.series_id || '/season/' || e.season_number || '/episode/' || e.episode_number || '/credits' AS uri,
    ({
        'id': e.id,
        'cast': coalesce(sc."cast", []),
        'crew': coalesce(j.crew, '[]'::JSON),
        'guest_stars': coalesce(j.guest_stars, '[]'::JSON)
    }) AS doc
FROM tv_episodes e
LEFT JOIN season_cast_lists sc ON sc.series_id = e.series_id AND sc.season_number = e.season_number
LEFT JOIN episode_credit_json j ON j.episode_id = e.id  -- tv_episode_credit_json.sql
WHERE in_scope('series', e.series_id)

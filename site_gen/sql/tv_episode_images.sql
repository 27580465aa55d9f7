-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}/images: the episode's stills
-- (image_lists); "id" is the episode's own id, as at TMDB.
SELECT
    '/3/tv/' || e.series_id || '/season/' || e.season_number || '/episode/' || e.episode_number || '/images' AS uri,
    ({'id': e.id, 'stills': coalesce(s.images, [])}) AS doc
FROM tv_episodes e
LEFT JOIN image_lists s ON s.owner = 'episode' AND s.owner_id = e.id AND s.kind = 'still'

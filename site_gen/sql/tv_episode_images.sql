-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}/images: the episode's stills,
-- best-rated first; "id" is the episode's own id, as at TMDB.
WITH lists AS (
    SELECT episode_id,
           list({'aspect_ratio': aspect_ratio, 'height': height, 'iso_639_1': iso_639_1,
                 'file_path': file_path, 'vote_average': vote_average, 'vote_count': vote_count,
                 'width': width}
                ORDER BY vote_average DESC, vote_count DESC, file_path) AS images
    FROM episode_images WHERE kind = 'still' GROUP BY episode_id
)
SELECT
    '/3/tv/' || e.series_id || '/season/' || e.season_number || '/episode/' || e.episode_number || '/images' AS uri,
    encode(to_json({'id': e.id, 'stills': coalesce(s.images, [])})) AS body
FROM tv_episodes e
LEFT JOIN lists s ON s.episode_id = e.id

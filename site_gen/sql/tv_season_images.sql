-- /3/tv/{series_id}/season/{season_number}/images: the season's posters, best-rated first; "id" is
-- the season's own id, as at TMDB.
WITH lists AS (
    SELECT season_id,
           list({'aspect_ratio': aspect_ratio, 'height': height, 'iso_639_1': iso_639_1,
                 'file_path': file_path, 'vote_average': vote_average, 'vote_count': vote_count,
                 'width': width}
                ORDER BY vote_average DESC, vote_count DESC, file_path) AS images
    FROM season_images WHERE kind = 'poster' GROUP BY season_id
)
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number || '/images' AS uri,
    encode(to_json({'id': se.id, 'posters': coalesce(p.images, [])})) AS body
FROM tv_seasons se
LEFT JOIN lists p ON p.season_id = se.id

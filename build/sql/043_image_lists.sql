-- The image lists of every /images document (movies, series, seasons, episodes, collections), built
-- once: per owner and kind, best-rated first (vote_average, vote_count, then file_path); "xx" marks
-- no language. The owner's own poster/backdrop/still is rated highest by the generator, so it leads.
CREATE OR REPLACE TABLE image_lists AS
WITH images AS (
    SELECT 'movie' AS owner, movie_id AS owner_id, kind, aspect_ratio, height, iso_639_1, file_path,
           vote_average, vote_count, width FROM movie_images
    UNION ALL
    SELECT 'tv', series_id, kind, aspect_ratio, height, iso_639_1, file_path, vote_average, vote_count, width
    FROM series_images
    UNION ALL
    SELECT 'season', season_id, kind, aspect_ratio, height, iso_639_1, file_path, vote_average, vote_count, width
    FROM season_images
    UNION ALL
    SELECT 'episode', episode_id, kind, aspect_ratio, height, iso_639_1, file_path, vote_average, vote_count, width
    FROM episode_images
    UNION ALL
    SELECT 'collection', collection_id, kind, aspect_ratio, height, iso_639_1, file_path, vote_average, vote_count,
           width FROM collection_images
)
SELECT owner, owner_id, kind,
       list({'aspect_ratio': aspect_ratio, 'height': height, 'iso_639_1': iso_639_1, 'file_path': file_path,
             'vote_average': vote_average, 'vote_count': vote_count, 'width': width}
            ORDER BY vote_average DESC, vote_count DESC, file_path) AS images
FROM images
GROUP BY owner, owner_id, kind;

-- /3/collection/{collection_id}/images: the collection's backdrops and posters, best-rated first,
-- its own poster_path and backdrop_path first.
WITH lists AS (
    SELECT collection_id, kind,
           list({'aspect_ratio': aspect_ratio, 'height': height, 'iso_639_1': iso_639_1,
                 'file_path': file_path, 'vote_average': vote_average, 'vote_count': vote_count,
                 'width': width}
                ORDER BY vote_average DESC, vote_count DESC, file_path) AS images
    FROM collection_images GROUP BY collection_id, kind
)
SELECT
    '/3/collection/' || c.id || '/images' AS uri,
    encode(to_json({
        'id': c.id,
        'backdrops': coalesce(b.images, []),
        'posters': coalesce(p.images, [])
    })) AS body
FROM collections c
LEFT JOIN lists b ON b.collection_id = c.id AND b.kind = 'backdrop'
LEFT JOIN lists p ON p.collection_id = c.id AND p.kind = 'poster'

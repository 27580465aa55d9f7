-- /3/tv/{series_id}/images: all images of every language (TMDB's default without `language`; the
-- edge filters by language and include_image_language), each kind best-rated first; "xx" marks no
-- language. The series' own poster_path and backdrop_path rank first.
WITH lists AS (
    SELECT series_id, kind,
           list({'aspect_ratio': aspect_ratio, 'height': height, 'iso_639_1': iso_639_1,
                 'file_path': file_path, 'vote_average': vote_average, 'vote_count': vote_count,
                 'width': width}
                ORDER BY vote_average DESC, vote_count DESC, file_path) AS images
    FROM series_images GROUP BY series_id, kind
)
SELECT
    '/3/tv/' || s.id || '/images' AS uri,
    encode(to_json({
        'id': s.id,
        'backdrops': coalesce(b.images, []),
        'logos': coalesce(l.images, []),
        'posters': coalesce(p.images, [])
    })) AS body
FROM tv_series s
LEFT JOIN lists b ON b.series_id = s.id AND b.kind = 'backdrop'
LEFT JOIN lists l ON l.series_id = s.id AND l.kind = 'logo'
LEFT JOIN lists p ON p.series_id = s.id AND p.kind = 'poster'

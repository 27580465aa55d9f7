-- /3/movie/{movie_id}/images: all images of every language (TMDB's default without `language`), each
-- kind best-rated first (vote_average, vote_count, then file_path); "xx" marks no language.
WITH lists AS (
    SELECT movie_id, kind,
           list({'aspect_ratio': aspect_ratio, 'height': height, 'iso_639_1': iso_639_1,
                 'file_path': file_path, 'vote_average': vote_average, 'vote_count': vote_count,
                 'width': width}
                ORDER BY vote_average DESC, vote_count DESC, file_path) AS images
    FROM movie_images GROUP BY movie_id, kind
)
SELECT
    '/3/movie/' || m.id || '/images' AS uri,
    encode(to_json({
        'id': m.id,
        'backdrops': coalesce(b.images, []),
        'logos': coalesce(l.images, []),
        'posters': coalesce(p.images, [])
    })) AS body
FROM movies m
LEFT JOIN lists b ON b.movie_id = m.id AND b.kind = 'backdrop'
LEFT JOIN lists l ON l.movie_id = m.id AND l.kind = 'logo'
LEFT JOIN lists p ON p.movie_id = m.id AND p.kind = 'poster'

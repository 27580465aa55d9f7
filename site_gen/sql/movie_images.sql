-- /3/movie/{movie_id}/images: all images of every language (TMDB's default without `language`; the
-- edge filters by language and include_image_language), lists from image_lists (043_image_lists.sql).
SELECT
    '/3/movie/' || m.id || '/images' AS uri,
    ({
        'id': m.id,
        'backdrops': coalesce(b.images, []),
        'logos': coalesce(l.images, []),
        'posters': coalesce(p.images, [])
    }) AS doc
FROM movies m
LEFT JOIN image_lists b ON b.owner = 'movie' AND b.owner_id = m.id AND b.kind = 'backdrop'
LEFT JOIN image_lists l ON l.owner = 'movie' AND l.owner_id = m.id AND l.kind = 'logo'
LEFT JOIN image_lists p ON p.owner = 'movie' AND p.owner_id = m.id AND p.kind = 'poster'
WHERE in_scope('movie', m.id)

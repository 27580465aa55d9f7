-- /3/tv/{series_id}/images: all images of every language (TMDB's default without `language`; the
-- edge filters by language and include_image_language), lists from image_lists (043_image_lists.sql).
SELECT
    '/3/tv/' || s.id || '/images' AS uri,
    ({
        'id': s.id,
        'backdrops': coalesce(b.images, []),
        'logos': coalesce(l.images, []),
        'posters': coalesce(p.images, [])
    }) AS doc
FROM tv_series s
LEFT JOIN image_lists b ON b.owner = 'tv' AND b.owner_id = s.id AND b.kind = 'backdrop'
LEFT JOIN image_lists l ON l.owner = 'tv' AND l.owner_id = s.id AND l.kind = 'logo'
LEFT JOIN image_lists p ON p.owner = 'tv' AND p.owner_id = s.id AND p.kind = 'poster'

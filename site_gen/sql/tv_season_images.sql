-- /3/tv/{series_id}/season/{season_number}/images: the season's posters (image_lists); "id" is the
-- season's own id, as at TMDB.
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number || '/images' AS uri,
    ({'id': se.id, 'posters': coalesce(p.images, [])}) AS doc
FROM tv_seasons se
LEFT JOIN image_lists p ON p.owner = 'season' AND p.owner_id = se.id AND p.kind = 'poster'

-- /3/tv/{series_id}/content_ratings: one rating per country, by country code like TMDB.
SELECT
    '/3/tv/' || s.id || '/content_ratings' AS uri,
    ({'id': s.id, 'results': coalesce(r.results, [])}) AS doc
FROM tv_series s
LEFT JOIN (
    SELECT series_id,
           list({'descriptors': descriptors, 'iso_3166_1': iso_3166_1, 'rating': rating} ORDER BY ord) AS results
    FROM series_content_ratings GROUP BY series_id
) r ON r.series_id = s.id

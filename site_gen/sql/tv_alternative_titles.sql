-- /3/tv/{series_id}/alternative_titles
SELECT
    '/3/tv/' || s.id || '/alternative_titles' AS uri,
    ({'id': s.id, 'results': coalesce(a.results, [])}) AS doc
FROM tv_series s
LEFT JOIN (
    SELECT series_id, list({'iso_3166_1': iso_3166_1, 'title': title, 'type': type} ORDER BY ord) AS results
    FROM series_alternative_titles GROUP BY series_id
) a ON a.series_id = s.id

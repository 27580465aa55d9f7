-- /3/tv/{series_id}/keywords
SELECT
    '/3/tv/' || s.id || '/keywords' AS uri,
    ({'id': s.id, 'results': coalesce(k.results, [])}) AS doc
FROM tv_series s
LEFT JOIN (
    SELECT sk.series_id, list({'name': k.name, 'id': k.id} ORDER BY sk.ord) AS results
    FROM series_keywords sk JOIN tv_keywords k ON k.id = sk.keyword_id
    GROUP BY sk.series_id
) k ON k.series_id = s.id

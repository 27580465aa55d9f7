-- /3/network/{network_id}/alternative_names: "id" first, then the names in catalogue order (as a
-- company's, company_alternative_names.sql).
WITH names AS (
    SELECT network_id, list({'name': name, 'type': "type"} ORDER BY ord) AS results
    FROM network_alternative_names
    GROUP BY network_id
)
SELECT
    '/3/network/' || w.id || '/alternative_names' AS uri,
    ({'id': w.id, 'results': coalesce(n.results, [])}) AS doc
FROM networks w
LEFT JOIN names n ON n.network_id = w.id

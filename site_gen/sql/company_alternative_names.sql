-- /3/company/{company_id}/alternative_names: "id" first, then the names in catalogue order.
WITH names AS (
    SELECT company_id, list({'name': name, 'type': "type"} ORDER BY ord) AS results
    FROM company_alternative_names
    GROUP BY company_id
)
SELECT
    '/3/company/' || c.id || '/alternative_names' AS uri,
    ({'id': c.id, 'results': coalesce(n.results, [])}) AS doc
FROM companies c
LEFT JOIN names n ON n.company_id = c.id

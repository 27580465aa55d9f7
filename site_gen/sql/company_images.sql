-- /3/company/{company_id}/images: logos best-voted first (ord 0 is the company's logo_path).
WITH logos AS (
    SELECT company_id,
           list({
               'aspect_ratio': aspect_ratio, 'file_path': file_path, 'height': height, 'id': id,
               'file_type': file_type, 'vote_average': vote_average, 'vote_count': vote_count,
               'width': width
           } ORDER BY ord) AS logos
    FROM company_images
    GROUP BY company_id
)
SELECT
    '/3/company/' || c.id || '/images' AS uri,
    ({'id': c.id, 'logos': coalesce(l.logos, [])}) AS doc
FROM companies c
LEFT JOIN logos l ON l.company_id = c.id

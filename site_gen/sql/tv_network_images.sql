-- /3/network/{network_id}/images: logos best-voted first (ord 0 is the network's logo_path), as a
-- company's (company_images.sql).
WITH logos AS (
    SELECT network_id,
           list({
               'aspect_ratio': aspect_ratio, 'file_path': file_path, 'height': height, 'id': id,
               'file_type': file_type, 'vote_average': vote_average, 'vote_count': vote_count,
               'width': width
           } ORDER BY ord) AS logos
    FROM network_images
    GROUP BY network_id
)
SELECT
    '/3/network/' || w.id || '/images' AS uri,
    ({'id': w.id, 'logos': coalesce(l.logos, [])}) AS doc
FROM networks w
LEFT JOIN logos l ON l.network_id = w.id

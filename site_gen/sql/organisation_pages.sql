-- Companies' and networks' alternative names and logos (/3/company/{id}/alternative_names, /images,
-- the same of /3/network/{id}): one shape for both, as TMDB gives them. `which` is 'company' or
-- 'network'; every company or network has its documents, empty lists when it has none.
CREATE OR REPLACE TEMP VIEW organisations AS
SELECT 'company' AS family, id FROM companies
UNION ALL
SELECT 'network', id FROM networks;

-- The names in catalogue order, "id" first.
CREATE OR REPLACE TEMP MACRO organisation_names(which) AS TABLE
WITH names AS (
    SELECT owner_id, list({'name': name, 'type': "type"} ORDER BY ord) AS results
    FROM (SELECT 'company' AS family, company_id AS owner_id, name, "type", ord FROM company_alternative_names
          UNION ALL
          SELECT 'network', network_id, name, "type", ord FROM network_alternative_names)
    WHERE family = which
    GROUP BY owner_id
)
SELECT
    '/3/' || which || '/' || o.id || '/alternative_names' AS uri,
    ({'id': o.id, 'results': coalesce(n.results, [])}) AS doc
FROM organisations o
LEFT JOIN names n ON n.owner_id = o.id
WHERE o.family = which;

-- The logos best-voted first (ord 0 is the company's or network's logo_path).
CREATE OR REPLACE TEMP MACRO organisation_logos(which) AS TABLE
WITH logos AS (
    SELECT owner_id,
           list({
               'aspect_ratio': aspect_ratio, 'file_path': file_path, 'height': height, 'id': id,
               'file_type': file_type, 'vote_average': vote_average, 'vote_count': vote_count,
               'width': width
           } ORDER BY ord) AS logos
    FROM (SELECT 'company' AS family, company_id AS owner_id, * EXCLUDE (company_id) FROM company_images
          UNION ALL
          SELECT 'network', network_id, * EXCLUDE (network_id) FROM network_images)
    WHERE family = which
    GROUP BY owner_id
)
SELECT
    '/3/' || which || '/' || o.id || '/images' AS uri,
    ({'id': o.id, 'logos': coalesce(l.logos, [])}) AS doc
FROM organisations o
LEFT JOIN logos l ON l.owner_id = o.id
WHERE o.family = which;

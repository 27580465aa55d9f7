-- /3/company/{company_id}: every company, keys in TMDB's order. parent_company is the parent's
-- {id, logo_path, name} (TMDB's shape) or null.
SELECT
    '/3/company/' || c.id AS uri,
    ({
        'description': c.description,
        'headquarters': c.headquarters,
        'homepage': c.homepage,
        'id': c.id,
        'logo_path': c.logo_path,
        'name': c.name,
        'origin_country': c.origin_country,
        'parent_company': CASE WHEN p.id IS NULL THEN NULL ELSE
            {'id': p.id, 'logo_path': p.logo_path, 'name': p.name} END
    }) AS doc
FROM companies c
LEFT JOIN companies p ON p.id = c.parent_company_id

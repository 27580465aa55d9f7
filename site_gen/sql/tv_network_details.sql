-- /3/network/{network_id}
SELECT
    '/3/network/' || id AS uri,
    ({
        'headquarters': headquarters, 'homepage': homepage, 'id': id, 'logo_path': logo_path, 'name': name,
        'origin_country': origin_country
    }) AS doc
FROM networks

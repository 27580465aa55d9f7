-- /3/watch/providers/movie and /3/watch/providers/tv, the path rendered (`scope_template`, set for
-- each template: site_gen/documents.py): every provider with its display priority in each region it
-- serves, for tv only those offering at least one series; providers by display priority, regions by code.
WITH priorities AS (
    SELECT provider_id,
           map_from_entries(list({'key': iso_3166_1, 'value': display_priority} ORDER BY iso_3166_1)) AS display_priorities
    FROM watch_provider_regions GROUP BY provider_id
)
SELECT
    getvariable('scope_template') AS uri,
    ({
        'results': coalesce(list({
            'display_priorities': r.display_priorities,
            'display_priority': p.display_priority,
            'logo_path': p.logo_path,
            'provider_name': p.provider_name,
            'provider_id': p.provider_id
        } ORDER BY p.display_priority, p.provider_id), [])
    }) AS doc
FROM watch_providers p
JOIN priorities r ON r.provider_id = p.provider_id
WHERE getvariable('scope_template') = '/3/watch/providers/movie'
   OR p.provider_id IN (SELECT provider_id FROM series_watch_providers)

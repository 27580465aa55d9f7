-- The `results` of every /watch/providers document (films and series), built once: per region (by
-- code) a link and the offer kinds it has (TMDB leaves out kinds without offers; json_merge_patch
-- drops the NULL ones), providers by their regional display priority. owner is 'movie' or 'tv'.
CREATE OR REPLACE TABLE watch_provider_results AS
WITH all_offers AS (
    SELECT 'movie' AS owner, movie_id AS owner_id, iso_3166_1, kind, provider_id FROM movie_watch_providers
    UNION ALL
    SELECT 'tv', series_id, iso_3166_1, kind, provider_id FROM series_watch_providers
),
offers AS (
    SELECT o.owner, o.owner_id, o.iso_3166_1, o.kind,
           list({'logo_path': p.logo_path, 'provider_id': p.provider_id, 'provider_name': p.provider_name,
                 'display_priority': r.display_priority}
                ORDER BY r.display_priority, p.provider_id) AS providers
    FROM all_offers o
    JOIN watch_providers p ON p.provider_id = o.provider_id
    JOIN watch_provider_regions r ON r.provider_id = o.provider_id AND r.iso_3166_1 = o.iso_3166_1
    GROUP BY o.owner, o.owner_id, o.iso_3166_1, o.kind
),
regions AS (
    SELECT owner, owner_id, iso_3166_1,
           json_merge_patch('{}', to_json({
               'link': 'https://www.themoviedb.org/' || owner || '/' || owner_id || '/watch?locale=' || iso_3166_1,
               'flatrate': max(providers) FILTER (WHERE kind = 'flatrate'),
               'rent': max(providers) FILTER (WHERE kind = 'rent'),
               'buy': max(providers) FILTER (WHERE kind = 'buy'),
               'ads': max(providers) FILTER (WHERE kind = 'ads'),
               'free': max(providers) FILTER (WHERE kind = 'free')
           })) AS region
    FROM offers GROUP BY owner, owner_id, iso_3166_1
)
SELECT owner, owner_id, map_from_entries(list({'key': iso_3166_1, 'value': region} ORDER BY iso_3166_1)) AS results
FROM regions GROUP BY owner, owner_id;

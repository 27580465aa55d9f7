-- /3/movie/{movie_id}/watch/providers: per region (by code) a link and the offer kinds it has
-- (TMDB leaves out kinds without offers; json_merge_patch drops the NULL ones), providers by their
-- regional display priority.
WITH offers AS (
    SELECT o.movie_id, o.iso_3166_1, o.kind,
           list({'logo_path': p.logo_path, 'provider_id': p.provider_id, 'provider_name': p.provider_name,
                 'display_priority': r.display_priority}
                ORDER BY r.display_priority, p.provider_id) AS providers
    FROM movie_watch_providers o
    JOIN watch_providers p ON p.provider_id = o.provider_id
    JOIN watch_provider_regions r ON r.provider_id = o.provider_id AND r.iso_3166_1 = o.iso_3166_1
    GROUP BY o.movie_id, o.iso_3166_1, o.kind
),
regions AS (
    SELECT movie_id, iso_3166_1,
           json_merge_patch('{}', to_json({
               'link': 'https://www.themoviedb.org/movie/' || movie_id || '/watch?locale=' || iso_3166_1,
               'flatrate': max(providers) FILTER (WHERE kind = 'flatrate'),
               'rent': max(providers) FILTER (WHERE kind = 'rent'),
               'buy': max(providers) FILTER (WHERE kind = 'buy'),
               'ads': max(providers) FILTER (WHERE kind = 'ads'),
               'free': max(providers) FILTER (WHERE kind = 'free')
           })) AS region
    FROM offers GROUP BY movie_id, iso_3166_1
)
SELECT
    '/3/movie/' || m.id || '/watch/providers' AS uri,
    encode(to_json({
        'id': m.id,
        'results': coalesce(w.results, map_from_entries([]::STRUCT("key" VARCHAR, "value" JSON)[]))
    })) AS body
FROM movies m
LEFT JOIN (
    SELECT movie_id, map_from_entries(list({'key': iso_3166_1, 'value': region} ORDER BY iso_3166_1)) AS results
    FROM regions GROUP BY movie_id
) w ON w.movie_id = m.id

-- /3/tv/{series_id}/watch/providers: the series' regions and offers (watch_provider_results,
-- 045_watch_providers.sql), shaped like the movie document; an empty object when offered nowhere.
SELECT
    '/3/tv/' || s.id || '/watch/providers' AS uri,
    ({
        'id': s.id,
        'results': coalesce(w.results, map_from_entries([]::STRUCT("key" VARCHAR, "value" JSON)[]))
    }) AS doc
FROM tv_series s
LEFT JOIN watch_provider_results w ON w.owner = 'tv' AND w.owner_id = s.id

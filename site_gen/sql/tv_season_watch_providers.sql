-- /3/tv/{series_id}/season/{season_number}/watch/providers (id: the season's id): where the series is
-- offered, as TMDB answers for each of its seasons (watch_provider_results, 045_watch_providers.sql).
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number || '/watch/providers' AS uri,
    ({
        'id': se.id,
        'results': coalesce(w.results, map_from_entries([]::STRUCT("key" VARCHAR, "value" JSON)[]))
    }) AS doc
FROM tv_seasons se
LEFT JOIN watch_provider_results w ON w.owner = 'tv' AND w.owner_id = se.series_id

-- /3/movie/{movie_id}/watch/providers: the film's regions and offers (watch_provider_results,
-- 045_watch_providers.sql); an empty object when it is offered nowhere.
SELECT
    '/3/movie/' || m.id || '/watch/providers' AS uri,
    ({
        'id': m.id,
        'results': coalesce(w.results, map_from_entries([]::STRUCT("key" VARCHAR, "value" JSON)[]))
    }) AS doc
FROM movies m
LEFT JOIN watch_provider_results w ON w.owner = 'movie' AND w.owner_id = m.id
WHERE in_scope('movie', m.id)

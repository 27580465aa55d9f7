-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}/external_ids (id: the episode's id)
SELECT
    '/3/tv/' || series_id || '/season/' || season_number || '/episode/' || episode_number || '/external_ids' AS uri,
    ({
        'id': id, 'imdb_id': imdb_id, 'freebase_mid': NULL::VARCHAR, 'freebase_id': NULL::VARCHAR,
        'tvdb_id': tvdb_id, 'tvrage_id': NULL::BIGINT, 'wikidata_id': NULL::VARCHAR
    }) AS doc
FROM tv_episodes

-- /3/tv/{series_id}/season/{season_number}/external_ids (id: the season's id)
SELECT
    '/3/tv/' || series_id || '/season/' || season_number || '/external_ids' AS uri,
    ({
        'id': id, 'freebase_mid': NULL::VARCHAR, 'freebase_id': NULL::VARCHAR, 'tvdb_id': tvdb_id,
        'tvrage_id': NULL::BIGINT, 'wikidata_id': wikidata_id
    }) AS doc
FROM tv_seasons

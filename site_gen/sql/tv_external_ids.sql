-- /3/tv/{series_id}/external_ids: null where the series has no such id (Freebase is gone: always null).
SELECT
    '/3/tv/' || id || '/external_ids' AS uri,
    ({
        'id': id, 'imdb_id': imdb_id, 'freebase_mid': NULL::VARCHAR, 'freebase_id': NULL::VARCHAR,
        'tvdb_id': tvdb_id, 'tvrage_id': tvrage_id, 'wikidata_id': wikidata_id, 'facebook_id': facebook_id,
        'instagram_id': instagram_id, 'twitter_id': twitter_id
    }) AS doc
FROM tv_series

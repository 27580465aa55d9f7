-- /3/person/{person_id}/external_ids: "id" first (the edge splices sub-resources for
-- append_to_response), then TMDB's keys; ids a person does not have are null.
SELECT
    '/3/person/' || p.id || '/external_ids' AS uri,
    ({
        'id': p.id,
        'freebase_mid': d.freebase_mid,
        'freebase_id': d.freebase_id,
        'imdb_id': p.imdb_id,
        'tvrage_id': d.tvrage_id,
        'wikidata_id': d.wikidata_id,
        'facebook_id': d.facebook_id,
        'instagram_id': d.instagram_id,
        'tiktok_id': d.tiktok_id,
        'twitter_id': d.twitter_id,
        'youtube_id': d.youtube_id
    }) AS doc
FROM people p
JOIN credited_people cp ON cp.id = p.id
LEFT JOIN person_details d ON d.person_id = p.id
WHERE in_scope('person', p.id)

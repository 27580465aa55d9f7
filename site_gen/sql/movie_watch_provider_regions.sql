-- /3/watch/providers/regions: every region with watch-provider data, by English name like TMDB.
SELECT
    '/3/watch/providers/regions' AS uri,
    ({
        'results': coalesce(list({'iso_3166_1': c.iso_3166_1, 'english_name': c.english_name,
                                  'native_name': c.native_name} ORDER BY c.english_name), [])
    }) AS doc
FROM countries c
WHERE c.iso_3166_1 IN (SELECT iso_3166_1 FROM watch_provider_regions)

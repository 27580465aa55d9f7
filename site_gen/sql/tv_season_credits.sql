-- /3/tv/{series_id}/season/{season_number}/credits: the regulars of this season and the series crew.
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number || '/credits' AS uri,
    ({
        'id': se.id,
        'cast': coalesce(c."cast", []),
        'crew': coalesce(r.crew, [])
    }) AS doc
FROM tv_seasons se
LEFT JOIN season_cast_lists c ON c.series_id = se.series_id AND c.season_number = se.season_number
LEFT JOIN series_crew_lists r ON r.series_id = se.series_id
WHERE in_scope('series', se.series_id)

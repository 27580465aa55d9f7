-- /3/tv/{series_id}/credits: the regular cast in billing order and the series-level crew.
SELECT
    '/3/tv/' || s.id || '/credits' AS uri,
    ({
        'id': s.id,
        'cast': coalesce(c."cast", []),
        'crew': coalesce(r.crew, [])
    }) AS doc
FROM tv_series s
LEFT JOIN (
    SELECT sc.series_id,
           ordered_values(list({'k': sc."order",
                                'v': {'adult': p.adult, 'gender': p.gender, 'id': p.id,
                                      'known_for_department': p.known_for_department,
                 'name': p.name, 'original_name': p.original_name, 'popularity': p.popularity,
                 'profile_path': p.profile_path, 'character': sc."character", 'credit_id': sc.credit_id,
                 'order': sc."order"}})) AS "cast"
    FROM series_cast sc JOIN credit_people p ON p.id = sc.person_id
    WHERE in_scope('series', sc.series_id)
    GROUP BY sc.series_id
) c ON c.series_id = s.id
LEFT JOIN series_crew_lists r ON r.series_id = s.id
WHERE in_scope('series', s.id)

-- /3/person/{person_id}/translations: every biography translation of a credited person. Names are
-- never translated, so data.name is the person's one name in every language.
SELECT
    '/3/person/' || p.id || '/translations' AS uri,
    ({
        'id': p.id,
        'translations': coalesce(ordered_values(list({'k1': t.iso_639_1, 'k2': t.iso_3166_1, 'v': {
            'iso_3166_1': t.iso_3166_1, 'iso_639_1': t.iso_639_1, 'name': l.name, 'english_name': l.english_name,
            'data': {'biography': t.biography, 'name': p.name}
        }}) FILTER (WHERE t.person_id IS NOT NULL)), [])
    }) AS doc
FROM credited_people cp
JOIN people p ON p.id = cp.id
LEFT JOIN person_translations t ON t.person_id = p.id
LEFT JOIN languages l ON l.iso_639_1 = t.iso_639_1
WHERE in_scope('person', p.id)
GROUP BY p.id, p.name

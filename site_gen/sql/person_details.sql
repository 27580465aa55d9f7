-- /3/person/{person_id}: TMDB's person-details document, keys in TMDB's order, for every credited
-- person (credited_people), in every language variant: the default language and '.und' for everyone,
-- each other served language the biography is translated into. Names are never translated; an
-- untranslated biography is "" (TMDB's answer). Absent values are null like TMDB's.
WITH variants AS (
    SELECT cp.id AS person_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM credited_people cp JOIN render_variants v ON v.kind IN ('default', 'und')
    WHERE in_scope('person', cp.id)
    UNION ALL
    SELECT t.person_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM person_translations t
    JOIN credited_people cp ON cp.id = t.person_id
    JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
    WHERE in_scope('person', t.person_id)
)
SELECT
    '/3/person/' || p.id || x.suffix AS uri,
    ({
        'adult': p.adult,
        'also_known_as': coalesce(p.also_known_as, []),
        'biography': coalesce(t.biography, ''),
        'birthday': p.birthday,
        'deathday': p.deathday,
        'gender': p.gender,
        'homepage': d.homepage,
        'id': p.id,
        'imdb_id': p.imdb_id,
        'known_for_department': p.known_for_department,
        'name': p.name,
        'place_of_birth': p.place_of_birth,
        'popularity': p.popularity,
        'profile_path': p.profile_path
    }) AS doc
FROM variants x
JOIN people p ON p.id = x.person_id
LEFT JOIN person_translations t
    ON t.person_id = p.id AND t.iso_639_1 = x.iso_639_1 AND t.iso_3166_1 = x.iso_3166_1
LEFT JOIN person_details d ON d.person_id = p.id

-- /3/person/{person_id}: TMDB's person-details document, keys in TMDB's order, for every credited
-- person (credited_people, built in 050_people_companies.sql). Absent values are null like TMDB's.
SELECT
    '/3/person/' || p.id AS uri,
    encode(to_json({
        'adult': p.adult,
        'also_known_as': coalesce(p.also_known_as, []),
        'biography': coalesce(p.biography, ''),
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
    })) AS body
FROM people p
JOIN credited_people cp ON cp.id = p.id
LEFT JOIN person_details d ON d.person_id = p.id

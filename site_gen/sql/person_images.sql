-- /3/person/{person_id}/images: profiles best-voted first (ord 0 is the profile_path); profile
-- photos carry no language, so iso_639_1 is always null as on TMDB.
WITH profiles AS (
    SELECT person_id,
           ordered_values(list({'k': ord, 'v': {
               'aspect_ratio': aspect_ratio, 'height': height, 'iso_639_1': NULL::VARCHAR,
               'file_path': file_path, 'vote_average': vote_average, 'vote_count': vote_count,
               'width': width
           }})) AS profiles
    FROM person_images
    WHERE in_scope('person', person_id)
    GROUP BY person_id
)
SELECT
    '/3/person/' || p.id || '/images' AS uri,
    ({'id': p.id, 'profiles': coalesce(i.profiles, [])}) AS doc
FROM people p
JOIN credited_people cp ON cp.id = p.id
LEFT JOIN profiles i ON i.person_id = p.id
WHERE in_scope('person', p.id)

-- /3/movie/{movie_id}/credits: cast in billing order, crew by department, job, name, credit id.
-- Person fields repeat on every credit, as in TMDB (original_name: names are not translated).
WITH cast_lists AS (
    SELECT c.movie_id,
           list({
               'adult': p.adult, 'gender': p.gender, 'id': p.id,
               'known_for_department': p.known_for_department, 'name': p.name,
               'original_name': p.original_name, 'popularity': p.popularity,
               'profile_path': p.profile_path, 'cast_id': c.cast_id, 'character': c."character",
               'credit_id': c.credit_id, 'order': c."order"
           } ORDER BY c."order") AS "cast"
    FROM "cast" c JOIN credit_people p ON p.id = c.person_id
    WHERE in_scope('movie', c.movie_id)
    GROUP BY c.movie_id
),
crew_lists AS (
    SELECT c.movie_id,
           list({
               'adult': p.adult, 'gender': p.gender, 'id': p.id,
               'known_for_department': p.known_for_department, 'name': p.name,
               'original_name': p.original_name, 'popularity': p.popularity,
               'profile_path': p.profile_path, 'credit_id': c.credit_id,
               'department': c.department, 'job': c.job
           } ORDER BY c.department, c.job, p.name, c.credit_id) AS crew
    FROM crew c JOIN credit_people p ON p.id = c.person_id
    WHERE in_scope('movie', c.movie_id)
    GROUP BY c.movie_id
)
SELECT
    '/3/movie/' || m.id || '/credits' AS uri,
    ({
        'id': m.id,
        'cast': coalesce(cl."cast", []),
        'crew': coalesce(rl.crew, [])
    }) AS doc
FROM movies m
LEFT JOIN cast_lists cl ON cl.movie_id = m.id
LEFT JOIN crew_lists rl ON rl.movie_id = m.id
WHERE in_scope('movie', m.id)

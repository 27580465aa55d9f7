-- A person's film crew credits as entries of composite documents (see person_movie_cast_entries.sql).
SELECT c.person_id, 'crew' AS role, 'movie' AS media_type, m.release_date AS sort_date, c.movie_id AS media_id,
       c.credit_id, 'movie/' || c.movie_id AS ref,
       {'credit_id': c.credit_id, 'department': c.department, 'job': c.job} AS entry,
       {'credit_id': c.credit_id, 'department': c.department, 'job': c.job, 'media_type': 'movie'}
           AS combined_entry
FROM crew c JOIN movies m ON m.id = c.movie_id
WHERE in_scope('person', c.person_id)
-- in person order: see person_movie_cast_entries.sql
ORDER BY c.person_id

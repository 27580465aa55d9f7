-- A film's crew credits as entries of its credits document (see movie_cast_entries.sql), ordered by
-- department, job, the person's name and credit id.
SELECT c.movie_id, c.department AS by_department, c.job AS by_job, p.name AS by_name, c.credit_id AS by_credit,
       'person/' || p.id AS ref,
       {'credit_id': c.credit_id, 'department': c.department, 'job': c.job} AS entry
FROM crew c JOIN credit_people p ON p.id = c.person_id
WHERE in_scope('movie', c.movie_id)

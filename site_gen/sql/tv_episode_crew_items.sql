-- An episode's crew, one item per credit (documents.checked_items: serialised and checked once), in
-- the order the episode lists them: department, job, name, credit id (tv_episode_credit_lists.sql).
SELECT c.series_id, c.episode_id, c.department AS by_department, c.job AS by_job, p.name AS by_name, c.credit_id AS by_credit,
       {'department': c.department, 'job': c.job, 'credit_id': c.credit_id, 'adult': p.adult,
        'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department, 'name': p.name,
        'original_name': p.original_name, 'popularity': p.popularity, 'profile_path': p.profile_path} AS item
FROM episode_crew c JOIN credit_people p ON p.id = c.person_id
WHERE in_scope('series', c.series_id)

-- A person's TV crew credits as entries of composite documents (see person_tv_cast_entries.sql):
-- credit_id/department/episode_count/job. A series crew member counts every regular episode; an
-- episode crew credit (one per series and job) counts the episodes it covers.
WITH episode_counts AS (
    SELECT series_id, count(*) AS episodes FROM tv_episodes WHERE season_number > 0 GROUP BY series_id
),
credits AS (
    SELECT c.person_id, c.series_id, c.credit_id, c.department, coalesce(f.episodes, 0) AS episode_count, c.job
    FROM series_crew c LEFT JOIN episode_counts f ON f.series_id = c.series_id
    WHERE in_scope('person', c.person_id)
    UNION ALL
    SELECT any_value(c.person_id), any_value(c.series_id), c.credit_id, any_value(c.department), count(*),
           any_value(c.job)
    FROM episode_crew c
    WHERE in_scope('person', c.person_id)
    GROUP BY c.credit_id
)
SELECT c.person_id, 'crew' AS role, 'tv' AS media_type, s.first_air_date AS sort_date, c.series_id AS media_id,
       c.credit_id, 'tv/' || c.series_id AS ref,
       {'credit_id': c.credit_id, 'department': c.department, 'episode_count': c.episode_count, 'job': c.job}
           AS entry,
       {'credit_id': c.credit_id, 'department': c.department, 'episode_count': c.episode_count, 'job': c.job,
        'media_type': 'tv'} AS combined_entry
FROM credits c JOIN tv_series_listed s ON s.id = c.series_id
-- in person order: see person_movie_cast_entries.sql
ORDER BY c.person_id

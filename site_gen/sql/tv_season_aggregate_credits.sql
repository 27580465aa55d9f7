-- /3/tv/{series_id}/season/{season_number}/aggregate_credits: the season's regulars (each in every
-- episode of it) and its episode crew, one entry per job with the episodes worked on.
WITH season_eps AS (
    SELECT series_id, season_number, count(*) AS n FROM tv_episodes WHERE in_scope('series', series_id) GROUP BY ALL
),
cast_lists AS (
    SELECT se.series_id, se.season_number,
           ordered_values(list({'k': sc."order", 'v': {
                 'adult': p.adult, 'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department,
                 'name': p.name, 'original_name': p.original_name, 'popularity': p.popularity,
                 'profile_path': p.profile_path,
                 'roles': [{'credit_id': sc.credit_id, 'character': sc."character", 'episode_count': se.n}],
                 'total_episode_count': se.n, 'order': sc."order"}})) AS "cast"
    FROM season_eps se
    JOIN series_cast sc ON sc.series_id = se.series_id
                       AND se.season_number BETWEEN sc.first_season AND sc.last_season
    JOIN credit_people p ON p.id = sc.person_id
    GROUP BY se.series_id, se.season_number
),
jobs AS (
    SELECT series_id, season_number, person_id, credit_id, department, job, count(*) AS episodes
    FROM episode_crew WHERE in_scope('series', series_id) GROUP BY ALL
),
totals AS (
    SELECT series_id, season_number, person_id, count(DISTINCT episode_id) AS total FROM episode_crew
    WHERE in_scope('series', series_id) GROUP BY ALL
),
people_jobs AS (
    SELECT j.series_id, j.season_number, j.person_id,
           ordered_values(list({'k1': -j.episodes, 'k2': j.job, 'k3': j.credit_id,
                                'v': {'credit_id': j.credit_id, 'job': j.job, 'episode_count': j.episodes}})) AS jobs,
           arg_max(j.department, j.episodes) AS department, any_value(t.total) AS total
    FROM jobs j
    JOIN totals t USING (series_id, season_number, person_id)
    GROUP BY j.series_id, j.season_number, j.person_id
),
crew_lists AS (
    SELECT pj.series_id, pj.season_number,
           ordered_values(list({'k1': -pj.total, 'k2': p.name, 'k3': p.id, 'v': {
                 'adult': p.adult, 'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department,
                 'name': p.name, 'original_name': p.original_name, 'popularity': p.popularity,
                 'profile_path': p.profile_path, 'jobs': pj.jobs, 'department': pj.department,
                 'total_episode_count': pj.total}})) AS crew
    FROM people_jobs pj JOIN credit_people p ON p.id = pj.person_id
    GROUP BY pj.series_id, pj.season_number
)
SELECT
    '/3/tv/' || se.series_id || '/season/' || se.season_number || '/aggregate_credits' AS uri,
    ({'id': se.id, 'cast': coalesce(c."cast", []), 'crew': coalesce(r.crew, [])}) AS doc
FROM tv_seasons se
LEFT JOIN cast_lists c ON c.series_id = se.series_id AND c.season_number = se.season_number
LEFT JOIN crew_lists r ON r.series_id = se.series_id AND r.season_number = se.season_number
WHERE in_scope('series', se.series_id)

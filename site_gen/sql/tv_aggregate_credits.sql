-- /3/tv/{series_id}/aggregate_credits: every regular with the episodes of the regular seasons they
-- are in; every episode crew member with one entry per job (its series-wide credit id) and the
-- number of episodes they worked on. Crew: most episodes first, then name.
WITH season_eps AS (
    SELECT series_id, season_number, count(*) AS n FROM tv_episodes
    WHERE season_number > 0 AND in_scope('series', series_id)
    GROUP BY series_id, season_number
),
regular_eps AS (
    SELECT sc.series_id, sc.person_id, sc.credit_id, sc."character", sc."order", coalesce(sum(se.n), 0) AS episodes
    FROM series_cast sc
    LEFT JOIN season_eps se ON se.series_id = sc.series_id
                           AND se.season_number BETWEEN sc.first_season AND sc.last_season
    WHERE in_scope('series', sc.series_id)
    GROUP BY ALL
),
cast_lists AS (
    SELECT r.series_id,
           ordered_values(list({'k': r."order", 'v': {
                 'adult': p.adult, 'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department,
                 'name': p.name, 'original_name': p.original_name, 'popularity': p.popularity,
                 'profile_path': p.profile_path,
                 'roles': [{'credit_id': r.credit_id, 'character': r."character", 'episode_count': r.episodes}],
                 'total_episode_count': r.episodes, 'order': r."order"}})) AS "cast"
    FROM regular_eps r JOIN credit_people p ON p.id = r.person_id
    GROUP BY r.series_id
),
jobs AS (
    SELECT series_id, person_id, credit_id, department, job, count(*) AS episodes
    FROM episode_crew WHERE in_scope('series', series_id) GROUP BY ALL
),
people_jobs AS (
    SELECT j.series_id, j.person_id,
           ordered_values(list({'k1': -j.episodes, 'k2': j.job, 'k3': j.credit_id,
                                'v': {'credit_id': j.credit_id, 'job': j.job, 'episode_count': j.episodes}})) AS jobs,
           arg_max(j.department, j.episodes) AS department, any_value(t.total) AS total
    FROM jobs j
    JOIN (SELECT series_id, person_id, count(DISTINCT episode_id) AS total FROM episode_crew
          WHERE in_scope('series', series_id) GROUP BY ALL) t
      ON t.series_id = j.series_id AND t.person_id = j.person_id
    GROUP BY j.series_id, j.person_id
),
crew_lists AS (
    SELECT pj.series_id,
           ordered_values(list({'k1': -pj.total, 'k2': p.name, 'k3': p.id, 'v': {
                 'adult': p.adult, 'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department,
                 'name': p.name, 'original_name': p.original_name, 'popularity': p.popularity,
                 'profile_path': p.profile_path, 'jobs': pj.jobs, 'department': pj.department,
                 'total_episode_count': pj.total}})) AS crew
    FROM people_jobs pj JOIN credit_people p ON p.id = pj.person_id
    GROUP BY pj.series_id
)
SELECT
    '/3/tv/' || s.id || '/aggregate_credits' AS uri,
    ({'id': s.id, 'cast': coalesce(c."cast", []), 'crew': coalesce(r.crew, [])}) AS doc
FROM tv_series s
LEFT JOIN cast_lists c ON c.series_id = s.id
LEFT JOIN crew_lists r ON r.series_id = s.id
WHERE in_scope('series', s.id)

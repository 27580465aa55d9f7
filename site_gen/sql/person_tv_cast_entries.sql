-- A person's TV cast credits as entries of composite documents: the series' item (`ref`,
-- tv_credit_results) followed by character/credit_id/episode_count, as TMDB's person tv_credits.
-- A regular's episode_count counts the episodes of the seasons they are in; a guest star has one
-- entry per guest credit (one episode each).
WITH regular_counts AS (
    SELECT c.credit_id, count(e.id) AS n
    FROM series_cast c
    LEFT JOIN tv_episodes e ON e.series_id = c.series_id
        AND e.season_number BETWEEN c.first_season AND c.last_season
    WHERE in_scope('person', c.person_id)
    GROUP BY c.credit_id
),
credits AS (
    SELECT c.person_id, c.series_id, c.credit_id, c."character", coalesce(rc.n, 0) AS episode_count
    FROM series_cast c LEFT JOIN regular_counts rc ON rc.credit_id = c.credit_id
    WHERE in_scope('person', c.person_id)
    UNION ALL
    SELECT g.person_id, g.series_id, g.credit_id, g."character", 1::BIGINT
    FROM episode_guest_stars g
    WHERE in_scope('person', g.person_id)
)
SELECT c.person_id, 'cast' AS role, 'tv' AS media_type, s.first_air_date AS sort_date, c.series_id AS media_id,
       c.credit_id, 'tv/' || c.series_id AS ref,
       {'character': c."character", 'credit_id': c.credit_id, 'episode_count': c.episode_count} AS entry,
       {'character': c."character", 'credit_id': c.credit_id, 'episode_count': c.episode_count,
        'media_type': 'tv'} AS combined_entry
FROM credits c JOIN tv_series_listed s ON s.id = c.series_id
-- in person order: see person_movie_cast_entries.sql
ORDER BY c.person_id

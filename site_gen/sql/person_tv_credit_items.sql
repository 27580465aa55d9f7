-- TV rows of person_credit_items (run only when the TV tables exist; see site_gen/person.py).
-- Items follow TMDB's person tv_credits: the series' list fields, then character/credit_id/
-- episode_count (cast) or credit_id/department/episode_count/job (crew). A regular's episode_count
-- counts the episodes of the seasons they are in, a series crew member's every regular episode;
-- a guest star has one item per guest credit (one episode each); an episode crew credit (one per
-- series and job) counts the episodes it covers.
INSERT INTO person_credit_items
WITH episode_counts AS (
    SELECT series_id, count(*) AS episodes FROM tv_episodes WHERE season_number > 0 GROUP BY series_id
),
genre_lists AS (
    SELECT series_id, list(genre_id ORDER BY ord) AS genre_ids FROM series_genres GROUP BY series_id
),
series_items AS (
    SELECT s.id AS series_id, s.first_air_date, coalesce(f.episodes, 0) AS episodes,
           {
               'adult': s.adult, 'backdrop_path': s.backdrop_path,
               'genre_ids': coalesce(g.genre_ids, []), 'id': s.id,
               'origin_country': coalesce(s.origin_country, []),
               'original_language': s.original_language, 'original_name': s.original_name,
               'overview': s.overview, 'popularity': s.popularity, 'poster_path': s.poster_path,
               'first_air_date': s.first_air_date, 'name': s.name,
               'vote_average': s.vote_average, 'vote_count': s.vote_count
           } AS item
    FROM tv_series_listed s  -- default-language name and overview (site_gen/languages.py)
    LEFT JOIN episode_counts f ON f.series_id = s.id
    LEFT JOIN genre_lists g ON g.series_id = s.id
),
regular_counts AS (
    SELECT c.credit_id, count(e.id) AS n
    FROM series_cast c
    LEFT JOIN tv_episodes e ON e.series_id = c.series_id
        AND e.season_number BETWEEN c.first_season AND c.last_season
    WHERE in_scope('person', c.person_id)
    GROUP BY c.credit_id
),
regular_cast AS (
    SELECT c.person_id, si.first_air_date AS sort_date, c.series_id AS media_id, c.credit_id,
           struct_insert(si.item, "character" := c."character", credit_id := c.credit_id,
                         episode_count := coalesce(rc.n, 0)) AS item
    FROM series_cast c JOIN series_items si ON si.series_id = c.series_id
    LEFT JOIN regular_counts rc ON rc.credit_id = c.credit_id
    WHERE in_scope('person', c.person_id)
),
guest_cast AS (
    SELECT g.person_id, si.first_air_date AS sort_date, g.series_id AS media_id, g.credit_id,
           struct_insert(si.item, "character" := g."character", credit_id := g.credit_id,
                         episode_count := 1::BIGINT) AS item
    FROM episode_guest_stars g JOIN series_items si ON si.series_id = g.series_id
    WHERE in_scope('person', g.person_id)
),
series_crew_credits AS (
    SELECT c.person_id, si.first_air_date AS sort_date, c.series_id AS media_id, c.credit_id,
           struct_insert(si.item, credit_id := c.credit_id, department := c.department,
                         episode_count := si.episodes, job := c.job) AS item
    FROM series_crew c JOIN series_items si ON si.series_id = c.series_id
    WHERE in_scope('person', c.person_id)
),
episode_crew_credits AS (
    SELECT any_value(c.person_id) AS person_id, any_value(si.first_air_date) AS sort_date,
           any_value(c.series_id) AS media_id, c.credit_id,
           struct_insert(any_value(si.item), credit_id := c.credit_id, department := any_value(c.department),
                         episode_count := count(*), job := any_value(c.job)) AS item
    FROM episode_crew c JOIN series_items si ON si.series_id = c.series_id
    WHERE in_scope('person', c.person_id)
    GROUP BY c.credit_id
),
credits AS (
    -- Serialised per role before the UNION: unioning the struct shapes would merge their fields.
    SELECT person_id, 'cast' AS role, sort_date, media_id, credit_id, to_json(item) AS item,
           to_json(struct_insert(item, media_type := 'tv')) AS combined_item FROM regular_cast
    UNION ALL
    SELECT person_id, 'cast', sort_date, media_id, credit_id, to_json(item),
           to_json(struct_insert(item, media_type := 'tv')) FROM guest_cast
    UNION ALL
    SELECT person_id, 'crew', sort_date, media_id, credit_id, to_json(item),
           to_json(struct_insert(item, media_type := 'tv')) FROM series_crew_credits
    UNION ALL
    SELECT person_id, 'crew', sort_date, media_id, credit_id, to_json(item),
           to_json(struct_insert(item, media_type := 'tv')) FROM episode_crew_credits
)
SELECT person_id, role, 'tv' AS media_type, sort_date, media_id, credit_id, item, combined_item
FROM credits;

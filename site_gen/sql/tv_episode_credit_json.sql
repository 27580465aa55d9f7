-- Each episode's crew and guest stars as one JSON array, spliced into the season (every language
-- variant), the episode (every variant) and its credits: built once per episode instead of once
-- per document (at 100k movies the season documents spent 14 of their 18 s rebuilding these lists).
CREATE OR REPLACE TEMP TABLE episode_credit_json AS
SELECT coalesce(c.episode_id, g.episode_id) AS episode_id, coalesce(c.crew, '[]'::JSON) AS crew,
       coalesce(g.guest_stars, '[]'::JSON) AS guest_stars
FROM (SELECT episode_id, CAST('[' || string_agg(json, ',' ORDER BY by_department, by_job, by_name, by_credit) || ']'
                              AS JSON) AS crew
      FROM episode_crew_items GROUP BY episode_id) c
FULL JOIN (SELECT episode_id, CAST('[' || string_agg(json, ',' ORDER BY by_order) || ']' AS JSON) AS guest_stars
           FROM episode_guest_items GROUP BY episode_id) g ON g.episode_id = c.episode_id

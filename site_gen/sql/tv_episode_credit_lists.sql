-- Each episode's crew and guest stars as JSON arrays of their checked items, built once per episode
-- (at 100k movies the season documents spent 14 of their 18 s rebuilding these lists). A non-empty
-- array is an item document of its own (site_gen/tv.py, EPISODE_CREDITS); seasons, episodes and
-- episode credits reference it in every language variant (tv_episode_credit_json.sql).
CREATE OR REPLACE TEMP TABLE episode_credit_lists AS
SELECT coalesce(c.series_id, g.series_id) AS series_id, coalesce(c.episode_id, g.episode_id) AS episode_id,
       c.crew, g.guest_stars
FROM (SELECT series_id, episode_id,
             '[' || array_to_string(ordered_values(list({'k1': by_department, 'k2': by_job, 'k3': by_name,
                                                           'k4': by_credit, 'v': json})), ',')
                 || ']' AS crew
      FROM episode_crew_items GROUP BY series_id, episode_id) c
FULL JOIN (SELECT series_id, episode_id,
                  '[' || array_to_string(ordered_values(list({'k': by_order, 'v': json})), ',')
                      || ']' AS guest_stars
           FROM episode_guest_items GROUP BY series_id, episode_id) g ON g.episode_id = c.episode_id

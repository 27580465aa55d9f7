-- /3/tv/{series_id}/episode_groups: the series' groups (absolute order, DVD order, story arcs...) with
-- their counts; a group's network is null unless it is a network's order.
WITH counted AS (
    SELECT group_id, count(*) AS episode_count, count(DISTINCT part_id) AS group_count
    FROM episode_group_episodes GROUP BY group_id
),
lists AS (
    SELECT g.series_id,
           list({'description': g.description, 'episode_count': coalesce(c.episode_count, 0),
                 'group_count': coalesce(c.group_count, 0), 'id': g.id, 'name': g.name,
                 'network': CASE WHEN n.id IS NOT NULL THEN {'id': n.id, 'logo_path': n.logo_path, 'name': n.name,
                                                             'origin_country': n.origin_country} END,
                 'type': g.type} ORDER BY g.type, g.id) AS results
    FROM episode_groups g
    LEFT JOIN counted c ON c.group_id = g.id
    LEFT JOIN networks n ON n.id = g.network_id
    GROUP BY g.series_id
)
SELECT
    '/3/tv/' || s.id || '/episode_groups' AS uri,
    ({'id': s.id, 'results': coalesce(l.results, [])}) AS doc
FROM tv_series s
LEFT JOIN lists l ON l.series_id = s.id

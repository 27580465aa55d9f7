-- /3/tv/episode_group/{tv_episode_group_id}: a group's parts in order, each with its episodes in the
-- group's order (`order` from 0, as TMDB numbers them), shaped as a season's episodes are.
WITH parts AS (
    SELECT x.group_id, x.part_id, x.part_order, any_value(x.part_name) AS name, bool_and(x.locked) AS locked,
           list({'air_date': coalesce(strftime(e.air_date, '%Y-%m-%d'), ''), 'episode_number': e.episode_number,
                 'id': e.id, 'name': e.name, 'overview': e.overview, 'production_code': e.production_code,
                 'runtime': e.runtime, 'season_number': e.season_number, 'show_id': e.series_id,
                 'still_path': e.still_path, 'vote_average': e.vote_average, 'vote_count': e.vote_count,
                 'order': x.ord} ORDER BY x.ord) AS episodes,
           count(*) AS n
    FROM episode_group_episodes x JOIN tv_episodes e ON e.id = x.episode_id
    GROUP BY x.group_id, x.part_id, x.part_order
),
grouped AS (
    SELECT group_id, sum(n) AS episode_count, count(*) AS group_count,
           list({'id': part_id, 'name': name, 'order': part_order, 'episodes': episodes, 'locked': locked}
                ORDER BY part_order) AS groups
    FROM parts GROUP BY group_id
)
SELECT
    '/3/tv/episode_group/' || g.id AS uri,
    ({
        'description': g.description,
        'episode_count': coalesce(p.episode_count, 0)::BIGINT,
        'group_count': coalesce(p.group_count, 0),
        'groups': coalesce(p.groups, []),
        'id': g.id,
        'name': g.name,
        'network': CASE WHEN n.id IS NOT NULL THEN {'id': n.id, 'logo_path': n.logo_path, 'name': n.name,
                                                    'origin_country': n.origin_country} END,
        'type': g.type
    }) AS doc
FROM episode_groups g
LEFT JOIN grouped p ON p.group_id = g.id
LEFT JOIN networks n ON n.id = g.network_id

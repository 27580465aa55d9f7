-- /3/tv/episode_group/{tv_episode_group_id}: a group's parts in order, each with its episodes in the
-- group's order (`order` from 0, as TMDB numbers them), shaped as a season's episodes are. In every
-- language variant: the default language and '.und' for every group, each other served language
-- one of its episodes is translated into. An episode's name and overview follow the season
-- documents' rule (tv_season_details.sql), so an episode reads the same wherever it appears: the
-- variant's translation, else the catalogue's name and an empty overview.
WITH variants AS (
    SELECT g.id AS group_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM episode_groups g JOIN render_variants v ON v.kind IN ('default', 'und')
    UNION
    SELECT x.group_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM episode_group_episodes x
    JOIN episode_translations t ON t.episode_id = x.episode_id
    JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
),
parts AS (
    SELECT x.group_id, y.suffix, x.part_id, x.part_order, any_value(x.part_name) AS name,
           bool_and(x.locked) AS locked,
           ordered_values(list({'k': x.ord,
                                'v': {'air_date': coalesce(strftime(e.air_date, '%Y-%m-%d'), ''),
                                      'episode_number': e.episode_number,
                 'id': e.id, 'name': coalesce(nullif(et.name, ''), e.name), 'overview': coalesce(et.overview, ''),
                 'production_code': e.production_code, 'runtime': e.runtime, 'season_number': e.season_number,
                 'show_id': e.series_id, 'still_path': e.still_path, 'vote_average': e.vote_average,
                 'vote_count': e.vote_count, 'order': x.ord}})) AS episodes,
           count(*) AS n
    FROM variants y
    JOIN episode_group_episodes x ON x.group_id = y.group_id
    JOIN tv_episodes e ON e.id = x.episode_id
    LEFT JOIN episode_translations et
        ON et.episode_id = e.id AND et.iso_639_1 = y.iso_639_1 AND et.iso_3166_1 = y.iso_3166_1
    GROUP BY x.group_id, y.suffix, x.part_id, x.part_order
),
grouped AS (
    SELECT group_id, suffix, sum(n) AS episode_count, count(*) AS group_count,
           ordered_values(list({'k': part_order, 'v': {'id': part_id, 'name': name, 'order': part_order,
                                                        'episodes': episodes, 'locked': locked}})) AS groups
    FROM parts GROUP BY group_id, suffix
)
SELECT
    '/3/tv/episode_group/' || g.id || y.suffix AS uri,
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
FROM variants y
JOIN episode_groups g ON g.id = y.group_id
LEFT JOIN grouped p ON p.group_id = g.id AND p.suffix = y.suffix
LEFT JOIN networks n ON n.id = g.network_id

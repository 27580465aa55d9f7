-- /3/tv/{series_id}/season/{season_number}/episode/{episode_number}, keys in TMDB's order, in every
-- language variant: the default language and '.und' for every episode, each other served language
-- the episode is translated into. Untranslated: the catalogue's name, an empty overview.
WITH variants AS (
    SELECT e.id AS episode_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM tv_episodes e JOIN render_variants v ON v.kind IN ('default', 'und')
    WHERE in_scope('series', e.series_id)
    UNION ALL
    SELECT t.episode_id, v.suffix, v.iso_639_1, v.iso_3166_1
    FROM episode_translations t
    JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
)
SELECT
    '/3/tv/' || e.series_id || '/season/' || e.season_number || '/episode/' || e.episode_number || x.suffix AS uri,
    ({
        'air_date': coalesce(CAST(e.air_date AS VARCHAR), ''),
        'crew': coalesce(j.crew, '[]'::JSON),
        'episode_number': e.episode_number,
        'episode_type': e.episode_type,
        'guest_stars': coalesce(j.guest_stars, '[]'::JSON),
        'name': coalesce(nullif(et.name, ''), e.name),
        'overview': coalesce(et.overview, ''),
        'id': e.id,
        'production_code': e.production_code,
        'runtime': e.runtime,
        'season_number': e.season_number,
        'still_path': e.still_path,
        'vote_average': e.vote_average,
        'vote_count': e.vote_count
    }) AS doc
FROM variants x
JOIN tv_episodes e ON e.id = x.episode_id
LEFT JOIN episode_translations et
    ON et.episode_id = e.id AND et.iso_639_1 = x.iso_639_1 AND et.iso_3166_1 = x.iso_3166_1
LEFT JOIN episode_credit_json j ON j.episode_id = e.id  -- tv_episode_credit_json.sql
WHERE in_scope('series', e.series_id)

-- Per-series, per-season and per-episode lists the TV renderers share (site_gen/sql/tv_*.sql),
-- aggregated once here so each document query is a join. Lists follow the catalogue's `ord` columns.

CREATE OR REPLACE TABLE series_genre_lists AS
SELECT sg.series_id,
       list({'id': g.id, 'name': g.name} ORDER BY sg.ord) AS genres,
       list(g.id ORDER BY sg.ord) AS genre_ids
FROM series_genres sg JOIN tv_genres g ON g.id = sg.genre_id
GROUP BY sg.series_id;

CREATE OR REPLACE TABLE series_network_lists AS
SELECT sn.series_id,
       list({'id': n.id, 'logo_path': n.logo_path, 'name': n.name, 'origin_country': n.origin_country}
            ORDER BY sn.ord) AS networks
FROM series_networks sn JOIN networks n ON n.id = sn.network_id
GROUP BY sn.series_id;

CREATE OR REPLACE TABLE series_company_lists AS
SELECT sc.series_id,
       list({'id': c.id, 'logo_path': c.logo_path, 'name': c.name, 'origin_country': c.origin_country}
            ORDER BY sc.ord) AS production_companies
FROM series_companies sc JOIN companies c ON c.id = sc.company_id
GROUP BY sc.series_id;

-- Production countries are the origin countries; spoken languages are the series' languages.
CREATE OR REPLACE TABLE series_country_lists AS
SELECT s.id AS series_id,
       list({'iso_3166_1': c.iso_3166_1, 'name': c.english_name} ORDER BY u.pos) AS production_countries
FROM tv_series s, unnest(s.origin_country) WITH ORDINALITY AS u(code, pos)
JOIN countries c ON c.iso_3166_1 = u.code
GROUP BY s.id;

CREATE OR REPLACE TABLE series_language_lists AS
SELECT s.id AS series_id,
       list({'english_name': l.english_name, 'iso_639_1': l.iso_639_1, 'name': l.name} ORDER BY u.pos)
           AS spoken_languages
FROM tv_series s, unnest(s.languages) WITH ORDINALITY AS u(code, pos)
JOIN languages l ON l.iso_639_1 = u.code
GROUP BY s.id;

CREATE OR REPLACE TABLE series_created_by_lists AS
SELECT cb.series_id,
       list({'id': p.id, 'credit_id': cb.credit_id, 'name': p.name, 'original_name': p.original_name,
             'gender': p.gender, 'profile_path': p.profile_path} ORDER BY cb.ord) AS created_by
FROM created_by cb JOIN credit_people p ON p.id = cb.person_id
GROUP BY cb.series_id;

-- Season and episode counts as TMDB reports them: the specials season 0 is listed but not counted.
CREATE OR REPLACE TABLE season_episode_counts AS
SELECT series_id, season_number, count(*) AS episode_count
FROM tv_episodes GROUP BY series_id, season_number;

CREATE OR REPLACE TABLE series_season_lists AS
SELECT se.series_id,
       list({'air_date': se.air_date, 'episode_count': coalesce(c.episode_count, 0), 'id': se.id,
             'name': se.name, 'overview': se.overview, 'poster_path': se.poster_path,
             'season_number': se.season_number, 'vote_average': se.vote_average}
            ORDER BY se.season_number) AS seasons,
       count(*) FILTER (WHERE se.season_number > 0) AS number_of_seasons,
       coalesce(sum(c.episode_count) FILTER (WHERE se.season_number > 0), 0) AS number_of_episodes
FROM tv_seasons se
LEFT JOIN season_episode_counts c ON c.series_id = se.series_id AND c.season_number = se.season_number
GROUP BY se.series_id;

-- The episode summary TMDB embeds as last_episode_to_air / next_episode_to_air.
CREATE OR REPLACE TABLE episode_summaries AS
SELECT e.id AS episode_id,
       {'id': e.id, 'name': e.name, 'overview': e.overview, 'vote_average': e.vote_average,
        'vote_count': e.vote_count, 'air_date': e.air_date, 'episode_number': e.episode_number,
        'episode_type': e.episode_type, 'production_code': e.production_code, 'runtime': e.runtime,
        'season_number': e.season_number, 'show_id': e.series_id, 'still_path': e.still_path} AS summary
FROM tv_episodes e;

-- (An episode's crew and guest stars are serialised once per episode by site_gen: tv_episode_credit_json.sql.)

-- Regulars per season (a regular is in the cast of every regular season from first_season to
-- last_season); the specials season has no regular cast, as on TMDB.
CREATE OR REPLACE TABLE season_cast_lists AS
SELECT se.series_id, se.season_number,
       list({'adult': p.adult, 'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department,
             'name': p.name, 'original_name': p.original_name, 'popularity': p.popularity,
             'profile_path': p.profile_path, 'character': sc."character", 'credit_id': sc.credit_id,
             'order': sc."order"} ORDER BY sc."order") AS "cast"
FROM tv_seasons se
JOIN series_cast sc ON sc.series_id = se.series_id
                   AND se.season_number BETWEEN sc.first_season AND sc.last_season
JOIN credit_people p ON p.id = sc.person_id
GROUP BY se.series_id, se.season_number;

CREATE OR REPLACE TABLE series_crew_lists AS
SELECT c.series_id,
       list({'adult': p.adult, 'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department,
             'name': p.name, 'original_name': p.original_name, 'popularity': p.popularity,
             'profile_path': p.profile_path, 'credit_id': c.credit_id, 'department': c.department,
             'job': c.job} ORDER BY c.department, c.job, p.name, c.credit_id) AS crew
FROM series_crew c JOIN credit_people p ON p.id = c.person_id
GROUP BY c.series_id;

-- Videos of each level (series: season_number NULL; season: episode_number NULL; episode), one
-- list per language: TMDB filters videos by `language`, so each language is its own variant.
CREATE OR REPLACE TABLE tv_video_lists AS
SELECT series_id, season_number, episode_number, iso_639_1,
       list({'iso_639_1': iso_639_1, 'iso_3166_1': iso_3166_1, 'name': name, 'key': "key", 'site': site,
             'size': size, 'type': type, 'official': official, 'published_at': published_at, 'id': id}
            ORDER BY ord) AS results
FROM tv_videos
GROUP BY series_id, season_number, episode_number, iso_639_1;

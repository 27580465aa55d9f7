-- The /compat (OMDb) title documents, as table macros the compat_*.sql templates select from with
-- in_scope() (site_gen/compat.py runs this; marquee/omdb.py holds OMDb's field orders, which the
-- structs below follow). Every value a string, 'N/A' for nothing; names and plots in the default
-- language (OMDb is English); dates `DD Mon YYYY`; counts with thousands commas.
CREATE OR REPLACE TEMP MACRO omdb_text(x) AS coalesce(nullif(CAST(x AS VARCHAR), ''), 'N/A');
CREATE OR REPLACE TEMP MACRO omdb_names(x) AS coalesce(nullif(array_to_string(x, ', '), ''), 'N/A');
CREATE OR REPLACE TEMP MACRO omdb_date(d) AS coalesce(strftime(CAST(d AS DATE), '%d %b %Y'), 'N/A');
CREATE OR REPLACE TEMP MACRO omdb_minutes(n) AS CASE WHEN n > 0 THEN n || ' min' ELSE 'N/A' END;
-- Short: the first sentence; full: all of it (plot=full).
CREATE OR REPLACE TEMP MACRO omdb_plot(p, full_plot) AS CASE
    WHEN coalesce(p, '') = '' THEN 'N/A'
    WHEN full_plot THEN p
    ELSE trim(coalesce(nullif(regexp_extract(p, '^.*?[.!?](\s|$)'), ''), p)) END;
-- A title has a /full document only when its whole plot is longer than the first sentence (nginx and
-- the edge fall back to the short one). The docs macros filter by it before they make a document:
-- filtered after, an episode's /full had its directors and writers aggregated for every episode
-- (36 of 38 CPU s at 1M films for no document: a generated catalogue's plots are one sentence).
CREATE OR REPLACE TEMP MACRO omdb_plot_kept(p, full_plot) AS NOT full_plot OR omdb_plot(p, true) <> omdb_plot(p, false);
CREATE OR REPLACE TEMP MACRO omdb_poster(path) AS
    CASE WHEN coalesce(path, '') = '' THEN 'N/A' ELSE getvariable('omdb_poster_base') || path END;
-- Our rating sources in OMDb's names and formats, only those we have.
CREATE OR REPLACE TEMP MACRO omdb_ratings(imdb, rotten, meta) AS list_filter([
    CASE WHEN imdb IS NOT NULL THEN {'Source': 'Internet Movie Database', 'Value': printf('%.1f', imdb) || '/10'} END,
    CASE WHEN rotten IS NOT NULL THEN {'Source': 'Rotten Tomatoes', 'Value': CAST(round(rotten) AS BIGINT) || '%'} END,
    CASE WHEN meta IS NOT NULL THEN {'Source': 'Metacritic', 'Value': CAST(round(meta) AS BIGINT) || '/100'} END
], lambda r: r IS NOT NULL);

-- The films whose /full document is made (omdb_plot_kept): their parts alone are aggregated for it.
CREATE OR REPLACE TEMP MACRO omdb_full_films() AS TABLE
SELECT t.movie_id AS id
FROM movie_translations t JOIN render_variants v ON t.iso_639_1 = v.iso_639_1 AND t.iso_3166_1 = v.iso_3166_1
WHERE v.kind = 'default' AND omdb_plot_kept(t.overview, true);
-- Whether omdb_movie_docs aggregates a film's parts: those in scope (in_scope is true for all of them
-- in a full build: an update that renders 1% of a million films took ~15 s aggregating every film's
-- credits), and for /full only those omdb_full_films has (10.8 CPU s at 1M films aggregating every
-- film's parts for no document, before).
CREATE OR REPLACE TEMP MACRO omdb_film_shown(movie_id, full_plot) AS
    in_scope('movie', movie_id) AND (NOT full_plot OR movie_id IN (SELECT id FROM omdb_full_films()));

CREATE OR REPLACE TEMP MACRO omdb_movie_docs(full_plot) AS TABLE
WITH us AS (
    SELECT movie_id,
           arg_min(nullif(certification, ''), CASE WHEN nullif(certification, '') IS NULL THEN 9 ELSE type END) AS rated,
           min(release_date) FILTER (WHERE type IN (2, 3)) AS released,
           min(release_date) FILTER (WHERE type = 5) AS dvd
    FROM movie_release_dates WHERE iso_3166_1 = 'US' AND omdb_film_shown(movie_id, full_plot) GROUP BY movie_id
), ratings AS (
    SELECT movie_id, max(value) FILTER (WHERE source = 'imdb') AS imdb,
           max(votes) FILTER (WHERE source = 'imdb') AS imdb_votes,
           max(value) FILTER (WHERE source = 'rotten_tomatoes') AS rotten,
           max(value) FILTER (WHERE source = 'metacritic') AS meta
    FROM movie_ratings WHERE omdb_film_shown(movie_id, full_plot) GROUP BY movie_id
), directors AS (
    SELECT c.movie_id, list(p.name ORDER BY c.credit_id) AS names
    FROM crew c JOIN credit_people p ON p.id = c.person_id
    WHERE c.job = 'Director' AND omdb_film_shown(c.movie_id, full_plot) GROUP BY c.movie_id
), writers AS (
    SELECT movie_id, list(name ORDER BY first) AS names FROM (
        SELECT c.movie_id, p.name, min(c.credit_id) AS first
        FROM crew c JOIN credit_people p ON p.id = c.person_id
        WHERE c.department = 'Writing' AND omdb_film_shown(c.movie_id, full_plot)
        GROUP BY c.movie_id, p.name)
    GROUP BY movie_id
), actors AS (
    SELECT c.movie_id, list(p.name ORDER BY c."order", c.credit_id)[1:3] AS names
    FROM "cast" c JOIN credit_people p ON p.id = c.person_id WHERE omdb_film_shown(c.movie_id, full_plot) GROUP BY c.movie_id
), variant AS (
    SELECT * FROM render_variants WHERE kind = 'default'
)
SELECT m.id AS movie_id, full_plot,
    ({
        'Title': coalesce(nullif(t.title, ''), m.original_title),
        'Year': omdb_text(coalesce(year(m.release_date), m.release_year)),
        'Rated': omdb_text(us.rated),
        'Released': omdb_date(coalesce(us.released, m.release_date)),
        'Runtime': omdb_minutes(m.runtime),
        'Genre': omdb_names(list_transform(g.genre_ids, lambda i: gn.names[i])),
        'Director': omdb_names(d.names),
        'Writer': omdb_names(w.names[1:3]),
        'Actors': omdb_names(a.names),
        'Plot': omdb_plot(t.overview, full_plot),
        'Language': omdb_names(list_transform(sl.spoken_languages, lambda l: l.english_name)),
        'Country': omdb_names(list_transform(pn.production_countries, lambda c: c.name)),
        'Awards': 'N/A',
        'Poster': omdb_poster(m.poster_path),
        'Ratings': omdb_ratings(r.imdb, r.rotten, r.meta),
        'Metascore': omdb_text(CAST(round(r.meta) AS BIGINT)),
        'imdbRating': CASE WHEN r.imdb IS NULL THEN 'N/A' ELSE printf('%.1f', r.imdb) END,
        'imdbVotes': CASE WHEN r.imdb_votes IS NULL THEN 'N/A' ELSE format('{:,}', r.imdb_votes) END,
        'imdbID': m.imdb_id,
        'Type': 'movie',
        'DVD': omdb_date(us.dvd),
        'BoxOffice': CASE WHEN m.revenue > 0 THEN '$' || format('{:,}', m.revenue) ELSE 'N/A' END,
        'Production': omdb_names(list_transform(pc.production_companies, lambda c: c.name)[1:3]),
        'Website': omdb_text(m.homepage),
        'Response': 'True'
    }) AS doc,
    t.overview AS plot
FROM movies m
CROSS JOIN variant v
LEFT JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = v.iso_639_1 AND t.iso_3166_1 = v.iso_3166_1
LEFT JOIN us ON us.movie_id = m.id
LEFT JOIN ratings r ON r.movie_id = m.id
LEFT JOIN directors d ON d.movie_id = m.id
LEFT JOIN writers w ON w.movie_id = m.id
LEFT JOIN actors a ON a.movie_id = m.id
LEFT JOIN genre_name_maps gn ON gn.iso_639_1 = v.genre_language
LEFT JOIN movie_genre_lists g ON g.movie_id = m.id
LEFT JOIN movie_company_lists pc ON pc.movie_id = m.id
LEFT JOIN movie_country_lists pn ON pn.movie_id = m.id
LEFT JOIN movie_language_lists sl ON sl.movie_id = m.id
WHERE m.imdb_id LIKE 'tt%' AND in_scope('movie', m.id) AND omdb_plot_kept(t.overview, full_plot);

-- The series' fields an episode repeats (rating, genres, languages, countries, actors, poster): seven
-- correlated subqueries a series, made once a build into a table five templates read, for the series in
-- omdb_series_wanted (site_gen/compat.py: those the build renders).
CREATE OR REPLACE TEMP TABLE omdb_series_parts AS
WITH variant AS (SELECT * FROM render_variants WHERE kind = 'default')
SELECT s.id AS series_id, s.imdb_id,
    coalesce(nullif(t.name, ''), nullif(s.name, ''), s.original_name) AS title,
    coalesce(nullif(t.overview, ''), s.overview) AS overview,
    CASE WHEN s.first_year IS NULL THEN 'N/A'
         WHEN s.status IN ('Ended', 'Canceled') AND s.last_year = s.first_year THEN CAST(s.first_year AS VARCHAR)
         WHEN s.status IN ('Ended', 'Canceled') AND s.last_year IS NOT NULL THEN s.first_year || '–' || s.last_year
         ELSE s.first_year || '–' END AS years,
    omdb_text((SELECT min_by(r.rating, r.ord) FROM series_content_ratings r
               WHERE r.series_id = s.id AND r.iso_3166_1 = 'US' AND r.rating <> '')) AS rated,
    omdb_names(list_transform(g.genre_ids, lambda i: gn.names[i])) AS genre,
    omdb_names((SELECT list(p.name ORDER BY c.ord) FROM created_by c JOIN credit_people p ON p.id = c.person_id
                WHERE c.series_id = s.id)) AS writer,
    omdb_names((SELECT list(p.name ORDER BY c."order", c.credit_id)[1:3] FROM series_cast c
                JOIN credit_people p ON p.id = c.person_id WHERE c.series_id = s.id)) AS actors,
    omdb_names((SELECT list(l.english_name ORDER BY u.i) FROM unnest(s.languages) WITH ORDINALITY AS u(code, i)
                JOIN languages l ON l.iso_639_1 = u.code)) AS language,
    omdb_names((SELECT list(c.english_name ORDER BY u.i) FROM unnest(s.origin_country) WITH ORDINALITY AS u(code, i)
                JOIN countries c ON c.iso_3166_1 = u.code)) AS country,
    omdb_poster(s.poster_path) AS poster,
    omdb_minutes(s.episode_run_time[1]) AS runtime,
    s.first_air_date,
    (SELECT count(*) FROM tv_seasons x WHERE x.series_id = s.id AND x.season_number > 0) AS seasons
-- The dates' years, else the years a source gave without dates (IMDb's).
FROM (SELECT *, coalesce(year(first_air_date), first_air_year) AS first_year,
             coalesce(year(last_air_date), last_air_year) AS last_year FROM tv_series
      WHERE id IN (SELECT id FROM omdb_series_wanted)) s
CROSS JOIN variant v
LEFT JOIN series_translations t ON t.series_id = s.id AND t.iso_639_1 = v.iso_639_1 AND t.iso_3166_1 = v.iso_3166_1
LEFT JOIN tv_genre_name_maps gn ON gn.iso_639_1 = v.genre_language
LEFT JOIN series_genre_lists g ON g.series_id = s.id;

CREATE OR REPLACE TEMP MACRO omdb_series_docs(full_plot) AS TABLE
SELECT x.series_id, full_plot, x.overview AS plot,
    ({
        'Title': x.title, 'Year': x.years, 'Rated': x.rated, 'Released': omdb_date(x.first_air_date),
        'Runtime': x.runtime, 'Genre': x.genre, 'Director': 'N/A', 'Writer': x.writer, 'Actors': x.actors,
        'Plot': omdb_plot(x.overview, full_plot), 'Language': x.language, 'Country': x.country, 'Awards': 'N/A',
        'Poster': x.poster, 'Ratings': omdb_ratings(NULL, NULL, NULL), 'Metascore': 'N/A', 'imdbRating': 'N/A',
        'imdbVotes': 'N/A', 'imdbID': x.imdb_id, 'Type': 'series', 'totalSeasons': CAST(x.seasons AS VARCHAR),
        'Response': 'True'
    }) AS doc
FROM omdb_series_parts x
WHERE x.imdb_id LIKE 'tt%' AND omdb_plot_kept(x.overview, full_plot);

CREATE OR REPLACE TEMP MACRO omdb_episode_docs(full_plot) AS TABLE
WITH variant AS (SELECT * FROM render_variants WHERE kind = 'default')
SELECT e.series_id, e.id AS episode_id, full_plot, coalesce(nullif(t.overview, ''), e.overview) AS plot,
    ({
        'Title': coalesce(nullif(t.name, ''), e.name), 'Year': omdb_text(coalesce(year(e.air_date), e.air_year)), 'Rated': x.rated,
        'Released': omdb_date(e.air_date), 'Season': CAST(e.season_number AS VARCHAR),
        'Episode': CAST(e.episode_number AS VARCHAR), 'Runtime': omdb_minutes(e.runtime), 'Genre': x.genre,
        'Director': omdb_names((SELECT list(p.name ORDER BY c.credit_id) FROM episode_crew c
                                JOIN credit_people p ON p.id = c.person_id WHERE c.episode_id = e.id AND c.job = 'Director')),
        'Writer': omdb_names((SELECT list(DISTINCT p.name ORDER BY p.name)[1:3] FROM episode_crew c
                              JOIN credit_people p ON p.id = c.person_id
                              WHERE c.episode_id = e.id AND c.department = 'Writing')),
        'Actors': x.actors, 'Plot': omdb_plot(coalesce(nullif(t.overview, ''), e.overview), full_plot),
        'Language': x.language, 'Country': x.country, 'Awards': 'N/A', 'Poster': x.poster,
        'Ratings': omdb_ratings(NULL, NULL, NULL), 'Metascore': 'N/A', 'imdbRating': 'N/A', 'imdbVotes': 'N/A',
        'imdbID': omdb_text(e.imdb_id), 'seriesID': x.imdb_id, 'Type': 'episode', 'Response': 'True'
    }) AS doc
FROM tv_episodes e
JOIN omdb_series_parts x ON x.series_id = e.series_id
CROSS JOIN variant v
LEFT JOIN episode_translations t ON t.episode_id = e.id AND t.iso_639_1 = v.iso_639_1 AND t.iso_3166_1 = v.iso_3166_1
WHERE x.imdb_id LIKE 'tt%' AND omdb_plot_kept(coalesce(nullif(t.overview, ''), e.overview), full_plot);

-- Per-movie lists every renderer shares, aggregated once here so each document query is a join.
-- Lists are ordered by the catalogue's `ord` columns so output is deterministic.

CREATE OR REPLACE TABLE movie_genre_lists AS
SELECT mg.movie_id,
       list({'id': g.id, 'name': g.name} ORDER BY mg.ord) AS genres,
       list(g.id ORDER BY mg.ord) AS genre_ids
FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id
GROUP BY mg.movie_id;

CREATE OR REPLACE TABLE movie_company_lists AS
SELECT mc.movie_id,
       list({'id': c.id, 'logo_path': c.logo_path, 'name': c.name, 'origin_country': c.origin_country}
            ORDER BY mc.ord) AS production_companies
FROM movie_companies mc JOIN companies c ON c.id = mc.company_id
GROUP BY mc.movie_id;

CREATE OR REPLACE TABLE movie_country_lists AS
SELECT mc.movie_id,
       list({'iso_3166_1': c.iso_3166_1, 'name': c.english_name} ORDER BY mc.ord) AS production_countries
FROM movie_countries mc JOIN countries c ON c.iso_3166_1 = mc.iso_3166_1
GROUP BY mc.movie_id;

CREATE OR REPLACE TABLE movie_language_lists AS
SELECT ml.movie_id,
       list({'english_name': l.english_name, 'iso_639_1': l.iso_639_1, 'name': l.name}
            ORDER BY ml.ord) AS spoken_languages
FROM movie_spoken_languages ml JOIN languages l ON l.iso_639_1 = ml.iso_639_1
GROUP BY ml.movie_id;

-- People as they appear inside credits (TMDB repeats these fields on every credit).
CREATE OR REPLACE TABLE credit_people AS
SELECT id, adult, gender, known_for_department, name, name AS original_name, popularity, profile_path
FROM people;

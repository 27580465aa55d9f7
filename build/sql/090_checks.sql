-- Referential checks: one row per problem. marquee_build.catalogue fails the build if any are found,
-- because a dangling id would otherwise render as a silently missing genre, company or credit.
CREATE OR REPLACE TABLE build_problems AS
SELECT 'movies.id ' || id || ' is not unique' AS problem FROM movies GROUP BY id HAVING count(*) > 1
UNION ALL
SELECT 'movie_genres: unknown genre ' || genre_id FROM movie_genres WHERE genre_id NOT IN (SELECT id FROM genres)
UNION ALL
SELECT 'movie_companies: unknown company ' || company_id FROM movie_companies WHERE company_id NOT IN (SELECT id FROM companies)
UNION ALL
SELECT 'movie_countries: unknown country ' || iso_3166_1 FROM movie_countries WHERE iso_3166_1 NOT IN (SELECT iso_3166_1 FROM countries)
UNION ALL
SELECT 'movie_spoken_languages: unknown language ' || iso_639_1 FROM movie_spoken_languages WHERE iso_639_1 NOT IN (SELECT iso_639_1 FROM languages)
UNION ALL
SELECT 'cast: unknown person ' || person_id FROM "cast" WHERE person_id NOT IN (SELECT id FROM people)
UNION ALL
SELECT 'crew: unknown person ' || person_id FROM crew WHERE person_id NOT IN (SELECT id FROM people)
UNION ALL
SELECT 'movies: unknown collection ' || collection_id FROM movies
WHERE collection_id IS NOT NULL AND collection_id NOT IN (SELECT id FROM collections)
UNION ALL
SELECT 'movie_translations: unknown movie ' || movie_id FROM movie_translations WHERE movie_id NOT IN (SELECT id FROM movies);

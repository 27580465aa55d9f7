-- Every image path a rendered document can reference; the release checks each has an original.
SELECT poster_path AS path FROM movies WHERE poster_path IS NOT NULL
UNION SELECT backdrop_path FROM movies WHERE backdrop_path IS NOT NULL
UNION SELECT poster_path FROM collections WHERE poster_path IS NOT NULL
UNION SELECT backdrop_path FROM collections WHERE backdrop_path IS NOT NULL
UNION SELECT c.logo_path FROM companies c JOIN movie_companies mc ON mc.company_id = c.id
      WHERE c.logo_path IS NOT NULL
UNION SELECT p.profile_path FROM people p JOIN "cast" c ON c.person_id = p.id WHERE p.profile_path IS NOT NULL
UNION SELECT p.profile_path FROM people p JOIN crew c ON c.person_id = p.id WHERE p.profile_path IS NOT NULL

-- Every image path a rendered document can reference; the release checks each has an original.
SELECT poster_path AS path FROM movies WHERE poster_path IS NOT NULL
UNION SELECT backdrop_path FROM movies WHERE backdrop_path IS NOT NULL
UNION SELECT poster_path FROM collections WHERE poster_path IS NOT NULL
UNION SELECT backdrop_path FROM collections WHERE backdrop_path IS NOT NULL
UNION SELECT c.logo_path FROM companies c JOIN movie_companies mc ON mc.company_id = c.id
      WHERE c.logo_path IS NOT NULL
UNION SELECT p.profile_path FROM people p JOIN "cast" c ON c.person_id = p.id WHERE p.profile_path IS NOT NULL
UNION SELECT p.profile_path FROM people p JOIN crew c ON c.person_id = p.id WHERE p.profile_path IS NOT NULL
UNION SELECT file_path FROM person_images
UNION SELECT file_path FROM company_images
UNION SELECT file_path FROM movie_images
UNION SELECT logo_path FROM watch_providers
UNION SELECT poster_path FROM tv_series WHERE poster_path IS NOT NULL
UNION SELECT backdrop_path FROM tv_series WHERE backdrop_path IS NOT NULL
UNION SELECT poster_path FROM tv_seasons WHERE poster_path IS NOT NULL
UNION SELECT still_path FROM tv_episodes WHERE still_path IS NOT NULL
UNION SELECT logo_path FROM networks WHERE logo_path IS NOT NULL
UNION SELECT c.logo_path FROM companies c JOIN series_companies sc ON sc.company_id = c.id WHERE c.logo_path IS NOT NULL
UNION SELECT p.profile_path FROM people p
      WHERE p.profile_path IS NOT NULL AND p.id IN (SELECT person_id FROM series_cast UNION SELECT person_id FROM created_by
          UNION SELECT person_id FROM series_crew UNION SELECT person_id FROM episode_crew
          UNION SELECT person_id FROM episode_guest_stars)
UNION SELECT file_path FROM series_images
UNION SELECT file_path FROM season_images
UNION SELECT file_path FROM episode_images
UNION SELECT file_path FROM collection_images

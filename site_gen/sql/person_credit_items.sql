-- Every movie credit of every person as one row with its list item already serialised: `item` is the
-- movie_credits entry (the movie's list fields, then the credit's), `combined_item` adds media_type
-- for combined_credits. person_tv_credit_items.sql adds the TV rows when the TV tables exist;
-- credited_people (who gets /3/person documents) is derived from this table by site_gen/person.py.
CREATE OR REPLACE TEMP TABLE person_credit_items AS
WITH movie_items AS (
    SELECT m.id AS movie_id, m.release_date,
           {
               'adult': m.adult, 'backdrop_path': m.backdrop_path,
               'genre_ids': coalesce(g.genre_ids, []), 'id': m.id,
               'original_language': m.original_language, 'original_title': m.original_title,
               'overview': coalesce(t.overview, ''), 'popularity': m.popularity,
               'poster_path': m.poster_path, 'release_date': m.release_date,
               'title': coalesce(nullif(t.title, ''), m.original_title), 'video': m.video,
               'vote_average': m.vote_average, 'vote_count': m.vote_count
           } AS item
    FROM movies m
    LEFT JOIN movie_translations t
        ON t.movie_id = m.id
       AND t.iso_639_1 = getvariable('iso_639_1')
       AND t.iso_3166_1 = getvariable('iso_3166_1')
    LEFT JOIN movie_genre_lists g ON g.movie_id = m.id
),
cast_credits AS (
    SELECT c.person_id, mi.release_date AS sort_date, c.movie_id AS media_id, c.credit_id,
           struct_insert(mi.item, "character" := c."character", credit_id := c.credit_id,
                         "order" := c."order") AS item
    FROM "cast" c JOIN movie_items mi ON mi.movie_id = c.movie_id
    WHERE in_scope('person', c.person_id)
),
crew_credits AS (
    SELECT c.person_id, mi.release_date AS sort_date, c.movie_id AS media_id, c.credit_id,
           struct_insert(mi.item, credit_id := c.credit_id, department := c.department, job := c.job) AS item
    FROM crew c JOIN movie_items mi ON mi.movie_id = c.movie_id
    WHERE in_scope('person', c.person_id)
)
-- Serialised per role before the UNION: unioning the two struct shapes would merge their fields.
SELECT person_id, 'cast' AS role, 'movie' AS media_type, sort_date, media_id, credit_id,
       to_json(item) AS item, to_json(struct_insert(item, media_type := 'movie')) AS combined_item
FROM cast_credits
UNION ALL
SELECT person_id, 'crew', 'movie', sort_date, media_id, credit_id,
       to_json(item), to_json(struct_insert(item, media_type := 'movie'))
FROM crew_credits;

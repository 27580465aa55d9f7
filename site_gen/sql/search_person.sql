-- People for the search index: their name and every name they are also known as; `adult`; the
-- item film credits repeat (person_items.sql's fields) and `known_for`, their three most popular
-- titles (`movie:603`, `tv:1`), shown as list items with media_type.
-- in_search_scope: the people an update exports (search_index.py).
WITH titles AS (
    SELECT c.person_id, 'movie:' || m.id AS ref, m.popularity FROM "cast" c JOIN movies m ON m.id = c.movie_id
    WHERE in_search_scope('person', c.person_id)
    UNION SELECT c.person_id, 'movie:' || m.id, m.popularity FROM crew c JOIN movies m ON m.id = c.movie_id
    WHERE in_search_scope('person', c.person_id)
    UNION SELECT c.person_id, 'tv:' || s.id, s.popularity FROM series_cast c JOIN tv_series s ON s.id = c.series_id
    WHERE in_search_scope('person', c.person_id)
    UNION SELECT c.person_id, 'tv:' || s.id, s.popularity FROM series_crew c JOIN tv_series s ON s.id = c.series_id
    WHERE in_search_scope('person', c.person_id)
), known AS (
    SELECT person_id AS id, list(ref ORDER BY popularity DESC, ref)[1:3] AS refs FROM titles GROUP BY person_id
)
SELECT p.id, p.popularity,
       list_prepend(p.name, coalesce(p.also_known_as, [])) AS names,
       CASE WHEN p.adult THEN ['adult'] ELSE [] END AS filters,
       to_json({'adult': p.adult, 'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department,
                'name': p.name, 'original_name': p.name, 'popularity': p.popularity,
                'profile_path': p.profile_path})::VARCHAR AS item,
       coalesce(k.refs, []) AS known_for
FROM people p
LEFT JOIN known k ON k.id = p.id
WHERE in_search_scope('person', p.id)

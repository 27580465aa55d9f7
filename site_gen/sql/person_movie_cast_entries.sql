-- A person's film cast credits as entries of composite documents (documents.checked_entries): the
-- film's item (`ref`, movie_list_results) followed by the credit's own fields; `combined_entry` adds
-- media_type for combined_credits. sort_date orders a filmography (person_credits_page.sql).
-- In person order: the credits pages render in ranges of person ids (documents.chunk_ranges), and
-- each range then reads only its own row groups (at 1M films the three pages took 238 CPU s over
-- rows in film order, 139 over these plus 45 to sort them; docs/benchmarks.md, session 54).
SELECT c.person_id, 'cast' AS role, 'movie' AS media_type, m.release_date AS sort_date, c.movie_id AS media_id,
       c.credit_id, 'movie/' || c.movie_id AS ref,
       {'character': c."character", 'credit_id': c.credit_id, 'order': c."order"} AS entry,
       {'character': c."character", 'credit_id': c.credit_id, 'order': c."order", 'media_type': 'movie'}
           AS combined_entry
FROM "cast" c JOIN movies m ON m.id = c.movie_id
WHERE in_scope('person', c.person_id)
ORDER BY c.person_id

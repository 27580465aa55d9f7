-- Every person as the item of film credits (site_gen/movie.py): the person fields TMDB repeats on
-- each credit, in its order, serialised and checked once (documents.checked_items) and written as
-- /_items/person/{id}. The credit's own fields follow it (movie_{cast,crew}_entries.sql).
SELECT p.id,
       {'adult': p.adult, 'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department,
        'name': p.name, 'original_name': p.original_name, 'popularity': p.popularity,
        'profile_path': p.profile_path} AS item
FROM credit_people p
WHERE in_scope('person', p.id)

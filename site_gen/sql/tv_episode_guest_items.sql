-- An episode's guest stars, one item per credit (documents.checked_items), in billing order.
SELECT g.series_id, g.episode_id, g."order" AS by_order,
       {'character': g."character", 'credit_id': g.credit_id, 'order': g."order", 'adult': p.adult,
        'gender': p.gender, 'id': p.id, 'known_for_department': p.known_for_department, 'name': p.name,
        'original_name': p.original_name, 'popularity': p.popularity, 'profile_path': p.profile_path} AS item
FROM episode_guest_stars g JOIN credit_people p ON p.id = g.person_id
WHERE in_scope('series', g.series_id)

-- A film's cast credits as entries of its credits document (documents.checked_entries): the person's
-- item (`ref`, person_items.sql) followed by the credit's own fields, in billing order.
SELECT c.movie_id, c."order" AS by_order, c.credit_id AS by_credit, 'person/' || p.id AS ref,
       {'cast_id': c.cast_id, 'character': c."character", 'credit_id': c.credit_id, 'order': c."order"} AS entry
FROM "cast" c JOIN credit_people p ON p.id = c.person_id
WHERE in_scope('movie', c.movie_id)

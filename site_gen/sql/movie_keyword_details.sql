-- /3/keyword/{keyword_id}: every keyword of the catalogue.
SELECT '/3/keyword/' || id AS uri, ({'id': id, 'name': name}) AS doc
FROM keywords

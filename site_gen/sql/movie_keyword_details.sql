-- /3/keyword/{keyword_id}: every keyword of the catalogue.
SELECT '/3/keyword/' || id AS uri, encode(to_json({'id': id, 'name': name})) AS body
FROM keywords

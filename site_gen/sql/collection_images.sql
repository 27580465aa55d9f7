-- /3/collection/{collection_id}/images: the collection's backdrops and posters (image_lists), its
-- own poster_path and backdrop_path first.
SELECT
    '/3/collection/' || c.id || '/images' AS uri,
    ({
        'id': c.id,
        'backdrops': coalesce(b.images, []),
        'posters': coalesce(p.images, [])
    }) AS doc
FROM collections c
LEFT JOIN image_lists b ON b.owner = 'collection' AND b.owner_id = c.id AND b.kind = 'backdrop'
LEFT JOIN image_lists p ON p.owner = 'collection' AND p.owner_id = c.id AND p.kind = 'poster'
WHERE in_scope('collection', c.id)

-- /3/network/{network_id}/images (organisation_pages.sql).
SELECT * FROM organisation_logos('network')

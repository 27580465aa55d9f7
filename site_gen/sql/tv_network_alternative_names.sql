-- /3/network/{network_id}/alternative_names (organisation_pages.sql).
SELECT * FROM organisation_names('network')

-- /3/company/{company_id}/alternative_names (organisation_pages.sql).
SELECT * FROM organisation_names('company')

-- /3/company/{company_id}/images (organisation_pages.sql).
SELECT * FROM organisation_logos('company')

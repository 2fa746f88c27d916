"""The core: every write (services), every read (selectors), the background tasks,
and the documents built from them (archive, CSV import and exports, PDFs). The pages
and the API call into it; it never calls back into them."""

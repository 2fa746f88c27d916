"""One way to write dates across the site, the PDFs and the director's pages:
5 Dec 2026, and 5 Dec 2026, 14:30 with a time (read the same in Jamaica, Trinidad and
the diaspora's countries, unlike 12/05/2026)."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"

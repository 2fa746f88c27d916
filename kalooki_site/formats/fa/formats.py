"""Numbers in Persian as the reader's phone writes them (and as the pages' scripts do
with Intl.NumberFormat): the Arabic decimal and thousands separators, in groups of
three. The digits themselves become Persian on the way out (kalooki_site.digits);
Django's own Persian formats give the dates."""

DECIMAL_SEPARATOR = "\u066b"  # ٫
THOUSAND_SEPARATOR = "\u066c"  # ٬
NUMBER_GROUPING = 3

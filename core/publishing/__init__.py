"""Publishing an event live from a venue install to the public site.

The venue (`Publication`) captures each change of the event as the difference between
two states of it (`state`: the archive's rows keyed by the venue's own ids), numbers it
and keeps it in its outbox (`outbox`); a background publisher sends what the site has
not acknowledged, in order, in batches (`sending`). The site checks each change's rows
as an archive's are checked, applies it once in order (`applying`), puts the event
through the services' checks again and lets its own standings, ratings and series
follow. The site's copy has one writer, its link (`links`); `compare` says whether the
two agree.
"""

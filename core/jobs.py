"""The names of the background jobs, each also the name of the Celery task that runs it
and the kind of the `scoring.models.DerivedState` rows that record what it has yet to
catch up. Here, apart from the services that queue the jobs, so that a read (a
selector asking whether a series' standings are stale) needs no import of them."""

STANDINGS = "core.refresh_standings"
SEATING = "core.seat_round"
SERIES_STANDINGS = "core.refresh_series_standings"

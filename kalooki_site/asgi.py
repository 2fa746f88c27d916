"""The site as an ASGI application: what the push server (uvicorn, started by
`manage.py run_processes` beside gunicorn) serves. The open leaderboards' streams are
answered by `public.push.Router` before Django (public/push.py); every other address
is Django's, as under gunicorn, which serves them in production."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

from kalooki_site import collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kalooki_site.settings")

django_application = get_asgi_application()

from public.push import Router  # noqa: E402 (Django is set up above)

application = Router(django_application)
collector.tune()  # what the push process loaded, frozen out of the collector's reach

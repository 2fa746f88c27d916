from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from kalooki_site import collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kalooki_site.settings")

application = get_wsgi_application()
collector.tune()  # what the web process loaded, frozen out of the collector's reach

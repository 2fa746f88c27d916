"""Settings for the test suite: the production settings with test-only secrets."""

from __future__ import annotations

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-kalooki-tournaments-0123456789abcdef")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

from kalooki_site.settings import *  # noqa: E402,F403

# Hashing passwords slowly only slows the suite down.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# The live pages poll every second, and a venue screen says its data is old after
# three without an answer (production: 3, 3, 5 and 10 s), so the browser tests wait
# for what they expect to see no longer than that.
PUBLIC_POLL_SECONDS = 1
ENTRY_POLL_SECONDS = 1
DIRECTOR_ENTRIES_POLL_SECONDS = 1
SCREEN_STALE_SECONDS = 3

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # The suite's commits (transactional tests, flushes, the test databases' creation)
    # need not wait for the disk: a test database is thrown away if the server stops.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405

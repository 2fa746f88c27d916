"""Settings for the Kalooki tournament site, all driven by the environment.

With nothing set, the site runs on an SQLite file in the project folder and Celery
runs tasks eagerly in the web process, so a fresh checkout works with no services.
Production sets DATABASE_URL (PostgreSQL), CELERY_BROKER_URL (Redis), SECRET_KEY
and ALLOWED_HOSTS.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value is None or value == "" else int(value)


def envlist(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def envsecret(name: str) -> str | None:
    """A secret from NAME, or from the file named by NAME_FILE (for Docker-style secrets)."""
    if os.environ.get(name):
        return os.environ[name]
    path = os.environ.get(f"{name}_FILE")
    return Path(path).read_text().strip() if path else None


DEBUG = envbool("DEBUG", False)

SECRET_KEY = envsecret("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "development-only-key-never-use-this-in-production-kalooki-0123456789"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "django_countries",
    "axes",
    "csp",
    "tournaments",
    "scoring",
    "core",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "kalooki_site.middleware.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language (README, "Languages"): after the session, before the rest.
    "kalooki_site.middleware.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "kalooki_site.middleware.RefuseUnreadableFormTextMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # django-csp's, with the site's own policy built once (kalooki_site.security_headers).
    "kalooki_site.security_headers.ContentSecurityPolicyMiddleware",
    "kalooki_site.middleware.MissingIsNotFoundMiddleware",
    "kalooki_site.middleware.BusyIsUnavailableMiddleware",
    "kalooki_site.middleware.PostOnlyOpensItsPageMiddleware",
    "kalooki_site.middleware.PublishedEventIsReadOnlyMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its 429 page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First, so a locked-out client is refused before its password is even checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "kalooki_site.urls"
WSGI_APPLICATION = "kalooki_site.wsgi.application"
ASGI_APPLICATION = "kalooki_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% load live %}: the live pages' timings, read from the settings.
            "libraries": {"live": "kalooki_site.live_tags"},
            # {{ contract|words }}: the game's words in the reader's language.
            "builtins": ["kalooki_site.word_tags"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=envint("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several requests (and eager Celery tasks) may write at once on the embedded
    # default; wait for the lock instead of failing with "database is locked".
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # The web server `manage.py run_processes` starts (the venue's, with no broker)
    # answers a save before the standings rebuild it queued, which runs on a thread of
    # its own and is shared by the saves that come meanwhile (core.background).
    JOBS_AFTER_RESPONSE = envbool("JOBS_AFTER_RESPONSE", False)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The languages a reader may choose (README, "Languages"); English is the source, the
# others are translated in locale/ (`manage.py translations`). The reader's choice is
# kept in Django's language cookie for a year.
LANGUAGES = [("en", "English"), ("ru", "Русский"), ("fa", "فارسی")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
# One date format everywhere (kalooki_site/formats/en/formats.py): 5 Dec 2026, 14:30.
FORMAT_MODULE_PATH = ["kalooki_site.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "America/Jamaica")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# In development (and tests) whitenoise serves straight from the app folders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# The public address of the site, for links printed on paper (QR codes on score
# sheets) when no request says it; and the paper printed on ("letter" or "a4").
SITE_URL = os.environ.get("SITE_URL", "")
PAPER_SIZE = os.environ.get("PAPER_SIZE", "letter")

# Players' codes (entry at the table): how many wrong codes one client may try within
# the window (seconds) before every try from it is refused until the window ends.
TABLE_CODE_ATTEMPTS = envint("TABLE_CODE_ATTEMPTS", 10)
TABLE_CODE_WINDOW = envint("TABLE_CODE_WINDOW", 600)

# The live pages (htmx polls, seconds): how often a public page (leaderboard, projector,
# a round's tables, a table's sheet), a player's entry page and the director's panel of
# the players' entries ask for news; and how long a venue screen goes without an answer
# before it says it is showing old data (static/public/clock.js).
PUBLIC_POLL_SECONDS = 3
# Open leaderboards are sent each new version by the push server (public/push.py) at
# their address's live/push/, which a proxy in front routes to it (README, "Deploy").
# Off: they poll. Needs a shared cache (CACHE_URL) for the announcements to reach it.
LIVE_PUSH = envbool("LIVE_PUSH", False)
ENTRY_POLL_SECONDS = 3
DIRECTOR_ENTRIES_POLL_SECONDS = 5
SCREEN_STALE_SECONDS = 10

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/director/"

# Cache: shared between processes in production (the leaderboard is cached by
# standings version), local memory for the embedded default. The cache only ever
# holds copies: when Redis cannot be reached, every cache call answers "not cached"
# at once (short timeouts, errors logged, never raised) and pages are built from the
# database until it is back.
CACHE_URL = os.environ.get("CACHE_URL", "")


def cache_settings(url: str) -> dict:
    """The cache (`default`) and the clients' limits (`counters`, in the same Redis):
    while Redis is down the cache answers "not cached", the counters count in each
    process instead (core.counters), so no limit is ever switched off."""
    if not url:
        locmem = "django.core.cache.backends.locmem.LocMemCache"
        return {
            "default": {"BACKEND": locmem},
            "counters": {"BACKEND": locmem, "LOCATION": "kalooki-counters"},
        }
    options = {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 1.0}
    return {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "OPTIONS": options,
        },
        "counters": {
            "BACKEND": "core.counters.RedisOrLocalCounters",
            "LOCATION": url,
            "OPTIONS": {**options, "IGNORE_EXCEPTIONS": False},
        },
    }


CACHES = cache_settings(CACHE_URL)
# Made by the process that rebuilt an event's standings, from the document in hand
# (`core.standings.document.keep_rebuilt`): each is called with the event and its
# standings before the new version is announced, and what it returns (the rest of its
# work: the API's list, claimed) after. The API's list first: its claim is taken before
# the first page is made, so a client reading the new version from the database
# meanwhile waits for it rather than make it. Only where the cache is shared
# (CACHE_URL): in a process's own cache only the page loads of that process could use
# them.
STANDINGS_PRODUCTS = (
    ["api.standings.keep_whole_list", "public.views.keep_first_page"] if CACHE_URL else []
)
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
DJANGO_REDIS_LOGGER = "kalooki_site.cache"

# Row locks: a request's save waits at most LOCK_WAIT_SECONDS for a row another
# transaction holds (PostgreSQL's lock_timeout), then is answered 503 "busy" with
# Retry-After: LOCK_RETRY_AFTER_SECONDS, so one stuck table never holds the web workers
# (core.locks). Background jobs wait as long as it takes.
LOCK_WAIT_SECONDS = envint("LOCK_WAIT_SECONDS", 3)
LOCK_RETRY_AFTER_SECONDS = envint("LOCK_RETRY_AFTER_SECONDS", 2)

# Security: safe defaults in production; each can be relaxed from the environment
# (for example SECURE_SSL_REDIRECT=0 behind a proxy that already redirects).
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
if envbool("SECURE_PROXY_SSL", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): every script and style is a file the site
# serves itself; no inline script, style or event handler anywhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        # Swagger UI draws its icons from data: URLs.
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

# Sign-in throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one
# username from one address, that pair is locked out for AXES_COOLOFF_MINUTES
# (answered 429), on the site's sign-in page and the admin's alike. Attempts are
# kept in the database, so every web process sees them and a cache outage changes
# nothing.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# The client's address as the API's throttles read it: past the NUM_PROXIES proxies
# in front of the site, so one client's wrong passwords never lock out another's.
AXES_CLIENT_IP_CALLABLE = "core.common.client_address"

# Outgoing mail: without EMAIL_HOST nothing can be sent, so the password-reset pages
# are not offered at all (a director asks an administrator instead).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = envint("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = envsecret("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
PASSWORD_RESET_ENABLED = bool(EMAIL_HOST)

# Celery. Without a broker, tasks run eagerly in the calling process (the embedded
# default); with CELERY_BROKER_URL they go to Redis and real workers.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A task is acknowledged only once done, and given back when its worker dies, so a
# crash loses no work (every task is safe to run twice).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Every task here takes seconds at most (a 1,024-player rebuild: 0.3 s); these bound a
# stuck one, and stay below the visibility timeout so a running task is never handed
# to a second worker.
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", 45)
CELERY_TASK_SOFT_TIME_LIMIT = envint("CELERY_TASK_SOFT_TIME_LIMIT", 40)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# How long one worker process goes on rebuilding the same derived data (an event's
# standings) while saves keep coming, before the jobs waiting for it in the worker's
# other processes take over (`core.derived.rebuild_alone`). A longer turn keeps at it
# the process holding its last rebuild in hand (the next takes up copies as old as its
# own last turn); a shorter one frees the other processes sooner for other jobs (the
# next round's seating, a circuit's standings). Well inside CELERY_TASK_SOFT_TIME_LIMIT.
REBUILD_TURN_SECONDS = envint("REBUILD_TURN_SECONDS", 5)
# A worker never gives up on its broker: by default Celery stops retrying (and raises)
# after 100 attempts, about 45 minutes into an outage.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task running when the broker goes away cannot be acknowledged on the dead
# connection: it is cancelled and given back (every task is safe to run twice) rather
# than finishing into an acknowledgement the worker can no longer send.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TASK_IGNORE_RESULT = True
# Sending a task while the broker is down fails within about a second (the request
# that queued it has committed already; see core.background).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A task taken by a worker that dies is handed to another after this many seconds.
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 60),
    # How often a worker looks for such abandoned tasks (seconds, and every Nth look).
    "unacked_restore_interval": envint("CELERY_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": envint("CELERY_RESTORE_THROTTLE", 1),
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
# Celery beat: one `celery -A kalooki_site beat` process (README, "Running it for
# real") sends the catch-up task on this schedule; it rebuilds any derived data the
# database says is stale (core.derived), whatever was lost on the way.
CATCH_UP_SECONDS = envint("CATCH_UP_SECONDS", 10)
# Derived data stale for longer than this means no worker is taking jobs (the broker
# down for long, every worker dead): the supervisor's standby process
# (`manage.py run_processes`) then rebuilds it itself, without the broker
# (core.derived.rebuild_overdue; docs/faults.md).
REBUILD_HERE_AFTER_SECONDS = envint("REBUILD_HERE_AFTER_SECONDS", 30)
# `manage.py check_worker` fails when no worker has run the catch-up for this long.
WORKER_SILENT_SECONDS = envint("WORKER_SILENT_SECONDS", 60)
CELERY_BEAT_SCHEDULE = {
    "catch-up-stale-derived-data": {"task": "core.catch_up", "schedule": CATCH_UP_SECONDS},
}
# The schedule is a fixed interval kept in memory: nothing to store between restarts.
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"

REST_FRAMEWORK = {
    # Token first, so an anonymous writer is told how to authenticate (401, not 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.guards.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "api.guards.Pagination",
    "PAGE_SIZE": 100,
    "DEFAULT_PARSER_CLASSES": ["api.guards.JSONParser"],
    "EXCEPTION_HANDLER": "api.support.exception_handler",
    # How many proxies in front of the site add themselves to X-Forwarded-For: a
    # client's address (which wrong players' codes are counted by) is read past them,
    # and never taken from a header the client itself could send.
    "NUM_PROXIES": envint("NUM_PROXIES", 0),
    "DEFAULT_THROTTLE_CLASSES": [
        "api.guards.AnonRateThrottle",
        "api.guards.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_RATE_ANON", "300/minute"),
        "user": os.environ.get("API_RATE_USER", "3000/minute"),
        # Requests with a wrong token, per address (api.support.TokenAuthentication).
        "auth-failure": os.environ.get("API_RATE_AUTH_FAILURE", "20/minute"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Kalooki tournaments API",
    "DESCRIPTION": "Events, players, seating, hand-by-hand scores and standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Every status code an operation can answer is declared (api.schema).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.declare_error_responses",
    ],
    # Swagger UI served by the app itself, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournaments.models.EventStatus",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "StandingStatusEnum": "scoring.models.Standing.Status",
        "ProposalStateEnum": "scoring.models.Proposal.State",
        "TableStateEnum": "core.rounds.selectors.TABLE_STATES",
        "ClockStateEnum": "game.clock.STATES",
    },
}

# An outage (Redis down, the broker away) fails the same way on every request: its
# traceback is logged once per LOG_REPEAT_SECONDS, with how many like it were left out,
# not once per request (kalooki_site.logs).
LOG_REPEAT_SECONDS = envint("LOG_REPEAT_SECONDS", 60)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "once_per_interval": {
            "()": "kalooki_site.logs.OncePerInterval",
            "seconds": LOG_REPEAT_SECONDS,
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        DJANGO_REDIS_LOGGER: {"filters": ["once_per_interval"]},
        "core.background": {"filters": ["once_per_interval"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

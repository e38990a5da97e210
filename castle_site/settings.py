"""Castle's settings, read from the environment.

DEBUG=1 gives a local development site (`make run` sets it). Without it the settings are
production's and need SECRET_KEY and ALLOWED_HOSTS, except under pytest, which runs with
DEBUG off but with a dev key, plain static storage and no HTTPS redirect.

The variables, all optional in development (README, "Deployment"):

- ``DATABASE_URL``: ``postgres://user@host:5432/name`` (default: ``db.sqlite3``);
  ``CONN_MAX_AGE`` seconds to keep its connections (default 60); ``TEST_DATABASE_NAME``
  for the test database (default ``test_`` + the name).
- ``DAILY_SECRET``: mixed into the daily challenge's deals (required in production);
  ``DAILY_LAUNCH`` the first daily's date; ``DAILY_DAYS_AHEAD`` days prepared ahead (7).
- ``SECRET_KEY`` (and, while rotating it, the old keys in ``SECRET_KEY_FALLBACKS``),
  ``ALLOWED_HOSTS`` and ``CSRF_TRUSTED_ORIGINS`` (comma-separated), ``DEBUG``,
  ``SECURE_SSL_REDIRECT`` (default on in production), ``LOG_LEVEL``.
- ``STATIC_ROOT``: where ``collectstatic`` writes (default ``staticfiles/``).
- ``CACHE_URL``: ``redis://host:6379/0`` (or ``rediss://``, ``unix://``) for Redis,
  ``locmem://`` or ``dummy://``; default: each process keeps its own memory cache.
"""

import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from castle_site.capacity import SHARED_CACHE_SCHEMES, shared_cache, web_concurrency

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, *, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, *, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=False)
TESTING = "pytest" in sys.modules
# django-stubs' mypy plugin imports the settings to read the models: a type check, local.
LOCAL = DEBUG or TESTING or "mypy" in sys.modules

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not LOCAL:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")
    SECRET_KEY = "django-insecure-castle-local-development-key-not-for-production"
# Signs the stored session data, log-in hashes and password reset tokens: a new key without
# the old one among the fallbacks signs everybody out and cuts anonymous players off their
# games.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", default=[])

# Mixed into every daily's candidate deals (HMAC): without it, anyone with the public code
# could compute tomorrow's deals. The same on every server and worker; never rotate it while
# dailies are prepared ahead (a new secret only changes days not yet prepared).
DAILY_SECRET = os.environ.get("DAILY_SECRET", "")
if not DAILY_SECRET:
    if not LOCAL:
        raise ImproperlyConfigured("Set DAILY_SECRET (or DEBUG=1 for local development).")
    DAILY_SECRET = "castle-local-development-daily-secret-not-for-production"
# The first day of the daily challenge (YYYY-MM-DD); default: the first prepared daily.
DAILY_LAUNCH = os.environ.get("DAILY_LAUNCH", "").strip() or None
# The speed rule: a daily win whose player moves came with a median gap under the first
# many milliseconds, or a mean gap under the second, is flagged for a moderator
# (games/leaderboard.py explains the rule).
DAILY_MIN_HUMAN_GAP_MS = int(os.environ.get("DAILY_MIN_HUMAN_GAP_MS", "150"))
DAILY_MIN_HUMAN_PACE_MS = int(os.environ.get("DAILY_MIN_HUMAN_PACE_MS", "300"))
# ... and one half of whose gaps (20 or more) lie within this share of their median: a
# script's steady pace (0 turns the check off).
DAILY_MIN_HUMAN_SPREAD = float(os.environ.get("DAILY_MIN_HUMAN_SPREAD", "0.1"))
# How many days after today the worker's schedule keeps prepared.
DAILY_DAYS_AHEAD = int(os.environ.get("DAILY_DAYS_AHEAD", "7"))
# Positions whose legal moves each game remembers in a process (games.rules.board): about
# 0.7 KB each, so 2,000 is under 1.5 MB a game where the engine's default (200,000, for
# random playouts) could reach 2.5 GB over every game.
LEGAL_MEMO_ENTRIES = int(os.environ.get("LEGAL_MEMO_ENTRIES", "2000"))

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "testserver"] if LOCAL else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "castle_site.apps.CastleAdminConfig",  # django.contrib.admin, its log-in rate-limited
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tasks_db",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",  # pages and move answers; BREACH-padded
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "castle_site.middleware.private_when_personal",  # sees the session's Vary: Cookie
    "castle_site.middleware.methods_the_site_takes",  # before the CSRF check's 403
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "castle_site.urls"
WSGI_APPLICATION = "castle_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    ),
}
if test_name := os.environ.get("TEST_DATABASE_NAME"):
    # Lets two test runs share one PostgreSQL server without dropping each other's database.
    DATABASES["default"]["TEST"] = {"NAME": test_name}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several server processes share one file: take the write lock at BEGIN (no upgrade
    # deadlocks), wait for it instead of failing, and let readers run beside the writer.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Slow work (the solver) never runs in a request: views enqueue tasks, which `manage.py
# worker` runs (`make run` and `make serve` start one). The queue is a table in the same
# database, so it works on SQLite for one machine and on PostgreSQL for several servers.
TASKS = {"default": {"BACKEND": "django_tasks_db.backend.DatabaseBackend"}}
# How often the worker runs its schedule (games.schedule: what must be ready ahead of time).
SCHEDULE_SECONDS = int(os.environ.get("SCHEDULE_SECONDS", "60"))


RATELIMIT_CACHE_ENTRIES = 200_000
"""Counters the rate limits' memory cache holds (a few hundred bytes each) before it culls."""


def cache_from_url(url: str, *, limits: bool = False) -> dict[str, object]:
    """Django's CACHES entry for ``CACHE_URL`` (empty: a memory cache per process).

    ``limits``: the rate limits' counters, kept apart from sessions and the rest. A memory
    cache holds 300 entries, then culls the oldest: with the counters among the sessions, a
    script that opened a few hundred sessions pushed its own counters out and started afresh.
    Their own memory cache holds ``RATELIMIT_CACHE_ENTRIES``; on Redis they share the
    server (under their own prefix), whose eviction policy must spare them (README)."""
    scheme = url.partition("://")[0].lower()
    if not url or scheme == "locmem":
        if limits:
            return {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "rate-limits",
                "OPTIONS": {"MAX_ENTRIES": RATELIMIT_CACHE_ENTRIES},
            }
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    if scheme in SHARED_CACHE_SCHEMES:
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "castle")
            + ("-limits" if limits else ""),
        }
    raise ImproperlyConfigured(
        f"CACHE_URL {url!r}: use redis://, rediss://, unix://, locmem:// or dummy://"
    )


# The board cache is not Django's (it lives in each process, keyed by game version, so it
# can never be stale): Redis only lets app servers share what Django's cache holds.
CACHES = {
    "default": cache_from_url(os.environ.get("CACHE_URL", "").strip()),
    "ratelimit": cache_from_url(os.environ.get("CACHE_URL", "").strip(), limits=True),
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

# Sessions live on the server: logging out, a password change or a sign-up ends a session
# for good, and a copied cookie dies with it. With a shared cache (Redis in production) a
# session is read from the cache in front of the database, a cache hit per request, written
# only when it changes. A memory cache is each process's own: another process would go on
# reading a session that was ended, so then they live in the database alone (Django's store,
# read with a plain query: castle_site.sessions).
SESSION_ENGINE = (
    "castle_site.cached_sessions"  # Django's cached_db, a day at most in the cache
    if shared_cache(os.environ.get("CACHE_URL", "").strip())
    else "castle_site.sessions"
)
SESSION_COOKIE_AGE = 60 * 60 * 24 * 400  # anonymous players keep their games for a year+
# Notes shown once after a redirect: a cookie, then the session, the latest few only.
MESSAGE_STORAGE = "castle_site.messages.RecentNotes"

# Rate limits (games.limits, README "Rate limits"): counters in their own cache, which every
# app server must share in production (CACHE_URL=redis://...). Behind a proxy, name the
# header that carries the client's address as Django's META key (``HTTP_X_REAL_IP``); the
# proxy must set it (or strip a client's own).
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "").strip()
CSRF_FAILURE_VIEW = "castle_site.views.csrf_failure"
RATELIMIT_USE_CACHE = "ratelimit"
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", default=True)

# Web workers per app server (gunicorn's own variable; default two per core and one more,
# castle_site.capacity): the solver may hold at most half of them at once
# (games.solver_jobs), so moves never queue behind hints.
WEB_CONCURRENCY = web_concurrency()
# Where the solver's slot locks live (one directory per host; default: the temp directory).
SOLVER_LOCK_DIR = os.environ.get("SOLVER_LOCK_DIR", "")

LOGIN_URL = "games:login"
LOGIN_REDIRECT_URL = "games:my_games"
LOGOUT_REDIRECT_URL = "games:home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # The manifest storage needs `collectstatic` first, which dev and tests skip.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if LOCAL
        else "castle_site.static_storage.MinifiedStaticFilesStorage",
    },
}
if LOCAL:
    # WhiteNoise serves straight from static/ and the apps, as in DEBUG: no collectstatic.
    WHITENOISE_USE_FINDERS = True
    WHITENOISE_AUTOREFRESH = True

# Enforced in development too, so an inline script fails where it is written. Django's
# debug pages opt out on their own.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    # What default-src does not cover: an injected <base> or a form posting elsewhere
    # (an attacker's pass), and framing (as X-Frame-Options says to older browsers).
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31_536_000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not TESTING)
    # Load balancers probe app servers over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # Trusts the proxy in front (it must set or strip this header).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "filters": {
        "without_traceback": {"()": "castle_site.logs.WithoutTraceback"},
        "capped": {"()": "castle_site.logs.Capped"},
    },
    "handlers": {
        # Every line cut short, a few a second per logger (castle_site.logs.Capped): clients
        # make Django, gunicorn and the site write lines at their pace.
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["capped"]},
        "brief": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["without_traceback", "capped"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Replaces Django's default handlers, which would print twice in DEBUG.
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # A refused request (a 400) in one line: castle_site.logs.WithoutTraceback.
        "django.security": {"handlers": ["brief"], "level": LOG_LEVEL, "propagate": False},
    },
}

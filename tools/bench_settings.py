"""The benchmark's settings: production's, with one more URL (``tools.bench_urls``)."""

from castle_site.settings import *  # noqa: F403

ROOT_URLCONF = "tools.bench_urls"

"""The benchmark's settings: production's, with one more URL (``tools.bench_urls``) and
without rate limits: every simulated player comes from 127.0.0.1, so one address would speak
for all of them. (The load test runs production's settings: its clients each send their own
address, as behind a proxy, and its attackers must meet the limits.)"""

from castle_site.settings import *  # noqa: F403

ROOT_URLCONF = "tools.bench_urls"
RATELIMIT_ENABLE = False

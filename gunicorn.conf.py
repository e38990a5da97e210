"""gunicorn's settings for the site: it reads this file from the directory it starts in
(``make serve`` and the README's deployment start it here). Flags on its command line win."""

import os
import sys

from castle_site.capacity import unshared_limits, web_concurrency

workers = web_concurrency()


def on_starting(server) -> None:  # type: ignore[no-untyped-def]
    """Refuse several workers whose rate limits would each count alone (no shared cache)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "castle_site.settings")
    from django.conf import settings

    problem = unshared_limits(
        workers=server.cfg.workers,
        cache_url=os.environ.get("CACHE_URL", "").strip(),
        limits_on=settings.RATELIMIT_ENABLE,
        debug=settings.DEBUG,
    )
    if problem:
        print(f"Castle: {problem}", file=sys.stderr)
        sys.exit(3)

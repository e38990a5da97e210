"""gunicorn's settings for the site: it reads this file from the directory it starts in
(``make serve`` and the README's deployment start it here). Flags on its command line win."""

import logging
import os
import sys

from gunicorn.glogging import Logger

from castle_site.capacity import unshared_limits, web_concurrency
from castle_site.logs import Capped

workers = web_concurrency()


class CappedLogger(Logger):
    """gunicorn's error log, cut short and kept to a rate as the site's own lines are
    (``castle_site.logs.Capped``). gunicorn writes it through handlers of its own, which the
    site's logging settings never reach, and quotes what it refuses: an attacker's pass sent
    request lines padded with 4,000 bytes that no parser accepts, and gunicorn wrote 18.5 MB
    of ``Invalid request from ip=…`` a second (1.6 TB a day)."""

    def setup(self, cfg) -> None:  # type: ignore[no-untyped-def]
        super().setup(cfg)
        log: logging.Logger = self.error_log
        if not any(isinstance(known, Capped) for known in log.filters):  # setup runs on HUP
            log.addFilter(Capped())


logger_class = CappedLogger


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

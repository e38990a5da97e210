"""gunicorn's settings for the site: it reads this file from the directory it starts in
(``make serve`` and the README's deployment start it here). Flags on its command line win."""

from castle_site.capacity import web_concurrency

workers = web_concurrency()

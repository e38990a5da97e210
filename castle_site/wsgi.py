"""WSGI entry point: `gunicorn castle_site.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "castle_site.settings")

application = get_wsgi_application()

"""WSGI entry point: `gunicorn castle_site.wsgi` (and `runserver`, through
``WSGI_APPLICATION``)."""

import os

from django.core.wsgi import get_wsgi_application

from castle_site.intake import guarded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "castle_site.settings")

application = guarded(get_wsgi_application())

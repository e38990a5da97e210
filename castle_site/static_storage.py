"""The static files storage of production: whitenoise's hashed and compressed files, with
stylesheets and scripts minified first.

The sources in ``static/`` explain themselves in comments, which players would otherwise
download with every first visit: about a fifth of a game page's first load. ``collectstatic``
writes each stylesheet and script without its comments and spare whitespace (rcssmin and
rjsmin, the minifiers django-compressor uses), its hashed copy too; whitenoise compresses
the minified files. The hashes in the names still come from the sources, as Django's
manifest storage computes them: a changed source gets a new name.
"""

from __future__ import annotations

from typing import Any

import rcssmin
import rjsmin
from django.core.files.base import ContentFile, File
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def minified(name: str, text: str) -> str | None:
    """``text`` minified, for a stylesheet or a script by its ``name``; else None."""
    for suffix, minify in MINIFIERS.items():
        if name.endswith(suffix):
            return str(minify(text))
    return None


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Every stylesheet and script is stored minified: the copy ``collectstatic`` makes and
    the hashed copies derived from it (minifying twice changes nothing)."""

    def _save(self, name: str, content: File[Any]) -> str:
        if name.endswith(tuple(MINIFIERS)):
            content.seek(0)
            data = content.read()
            text = data.decode() if isinstance(data, bytes) else data
            small = minified(name, text)
            if small is not None:
                content = ContentFile(small.encode())
        return super()._save(name, content)

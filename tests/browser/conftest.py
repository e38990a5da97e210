import pytest
from django.core.cache import caches


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """The live server runs in this process and every browser comes from 127.0.0.1: each
    test starts with empty rate-limit counters (and hint cache), as a new visitor would."""
    for cache in caches.all():
        cache.clear()

"""Production settings, checked the way a server starts them: in a fresh process, from the
environment (``DEBUG`` unset, a real key, hosts), not through pytest's relaxed settings."""

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import uuid
from html.parser import HTMLParser
from pathlib import Path
from urllib.request import urlopen

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from playwright.sync_api import Page, expect

from castle_site import capacity
from castle_site.settings import cache_from_url
from games import services
from games.models import Player
from games.rules import GAMES
from tests.browser.helpers import click_move
from tools.bench import free_port, serve, stop

from .helpers import NOW, browser

ROOT = Path(__file__).resolve().parents[2]
HOST = "castle.example.org"
SETTINGS_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "DAILY_SECRET",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL_REDIRECT",
    "DATABASE_URL",
    "CACHE_URL",
    "STATIC_ROOT",
    "CONN_MAX_AGE",
    "TEST_DATABASE_NAME",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # tests/conftest.py sets it for Playwright
}


def production_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update(
        SECRET_KEY=secrets.token_urlsafe(64),
        DAILY_SECRET=secrets.token_urlsafe(32),
        ALLOWED_HOSTS=HOST,
        CSRF_TRUSTED_ORIGINS=f"https://{HOST}",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp_path / "static"),
    )
    env.update(overrides)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def in_production(env: dict[str, str], script: str) -> dict:
    """Run ``script`` after ``django.setup()`` in a fresh process; it prints one JSON value."""
    code = "import json, django\ndjango.setup()\n" + script
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_check_deploy_prints_no_warnings_with_production_settings(tmp_path: Path) -> None:
    result = manage(production_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert result.stderr == ""


def test_check_deploy_does_warn_about_a_weak_key(tmp_path: Path) -> None:
    """The test above can fail: the same run with a short key reports it."""
    env = production_env(tmp_path, SECRET_KEY="too-short")

    result = manage(env, "check", "--deploy", "--fail-level", "WARNING")

    assert result.returncode != 0
    assert "security.W009" in result.stderr + result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path: Path) -> None:
    env = production_env(tmp_path)
    del env["SECRET_KEY"]

    result = manage(env, "check")

    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_a_daily_secret(tmp_path: Path) -> None:
    """Without it tomorrow's daily deals could be computed from the public code."""
    env = production_env(tmp_path)
    del env["DAILY_SECRET"]

    result = manage(env, "check")

    assert result.returncode != 0
    assert "Set DAILY_SECRET" in result.stderr


HEADERS_SCRIPT = f"""
from django.test import Client
browser = Client(HTTP_HOST={HOST!r})
plain = browser.get("/rules/citadel/")
probe = browser.get("/healthz")
proxied = browser.get("/healthz", HTTP_X_FORWARDED_PROTO="https")
secure = browser.get("/healthz", secure=True)
print(json.dumps({{
    "plain": [plain.status_code, plain.headers.get("Location")],
    "probe": probe.status_code,
    "proxied": proxied.status_code,
    "secure": [secure.status_code, dict(secure.headers)],
}}))
"""


def test_production_redirects_to_https_and_sends_security_headers(tmp_path: Path) -> None:
    answers = in_production(production_env(tmp_path), HEADERS_SCRIPT)

    assert answers["plain"] == [301, f"https://{HOST}/rules/citadel/"]
    assert answers["probe"] == 200  # a load balancer's health check, over plain HTTP
    assert answers["proxied"] == 200  # TLS ended at the proxy, which says so
    status, headers = answers["secure"]
    assert status == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert headers["Content-Security-Policy"] == (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"


STATIC_SCRIPT = f"""
from django.templatetags.static import static
from django.test import Client
browser = Client(HTTP_HOST={HOST!r})
css = static("css/castle.css")
page = browser.get("/", secure=True)
asset = browser.get(css, secure=True, HTTP_ACCEPT_ENCODING="gzip")
print(json.dumps({{
    "css": css,
    "page": [page.status_code, css in page.content.decode()],
    "asset": [asset.status_code, dict(asset.headers)],
}}))
"""


def test_production_serves_hashed_compressed_static_files_forever(tmp_path: Path) -> None:
    env = production_env(tmp_path)
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        result = manage(env, *command)
        assert result.returncode == 0, result.stderr

    answers = in_production(env, STATIC_SCRIPT)

    assert re.fullmatch(r"/static/css/castle\.[0-9a-f]{12}\.css", answers["css"])
    assert answers["page"] == [200, True]
    status, headers = answers["asset"]
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert "immutable" in headers["Cache-Control"]
    assert (tmp_path / "static" / "staticfiles.json").exists()


def test_production_serves_stylesheets_and_scripts_minified_and_they_still_play(
    page: Page, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gunicorn with production settings, as ``make serve`` runs it: every stylesheet and
    script of a game page comes without its comments and much smaller than its source, and
    the page still plays a move by clicks. (One worker: no shared cache here.)"""
    monkeypatch.setenv("STATIC_ROOT", str(tmp_path / "static"))
    port = free_port()
    server = serve(f"sqlite:///{tmp_path / 'db.sqlite3'}", port, workers=1)
    try:
        page.goto(f"http://127.0.0.1:{port}/play/beleaguered-castle/1/?autoplay=0")
        assets = page.evaluate(
            "[...document.querySelectorAll('script[src], link[rel=stylesheet]')]"
            ".map(e => e.getAttribute('src') || e.getAttribute('href'))"
        )
        names = {asset.split("/")[-1].split(".")[0] for asset in assets}
        assert {"board", "motion", "castle", "play"} <= names
        sources = served = 0
        for asset in assets:
            source = re.sub(r"^/static/(.+)\.[0-9a-f]{12}(\.\w+)$", r"static/\1\2", asset)
            text = (ROOT / source).read_text()
            with urlopen(f"http://127.0.0.1:{port}{asset}") as answer:
                body = answer.read().decode()
            for comment in re.findall(r"/\*\s*(.{16})", text):
                assert comment not in body, (asset, comment)
            sources, served = sources + len(text), served + len(body)
        assert served < 0.75 * sources

        click_move(page, "t3-t6")
        expect(page.locator("#move-count")).to_have_text("1")
        expect(page.locator("#status")).to_contain_text("Eight of clubs to right pile 2.")
    finally:
        stop(server)


# -- the cache ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("", "locmem.LocMemCache"),
        ("locmem://", "locmem.LocMemCache"),
        ("dummy://", "dummy.DummyCache"),
        ("redis://127.0.0.1:6379/1", "redis.RedisCache"),
        ("rediss://:secret@cache.internal:6380/0", "redis.RedisCache"),
    ],
)
def test_cache_url_picks_the_backend(url: str, backend: str) -> None:
    cache = cache_from_url(url)

    assert cache["BACKEND"] == f"django.core.cache.backends.{backend}"
    if "redis" in backend:
        assert cache["LOCATION"] == url


def test_cache_url_rejects_an_unknown_scheme() -> None:
    with pytest.raises(ImproperlyConfigured, match="memcached://"):
        cache_from_url("memcached://127.0.0.1:11211")


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


@pytest.mark.skipif(not redis_answers(), reason="no Redis on 127.0.0.1:6379")
def test_redis_cache_stores_and_reads_back() -> None:
    from django.core.cache import caches

    key = f"test-{uuid.uuid4()}"
    with override_settings(CACHES={"default": cache_from_url("redis://127.0.0.1:6379/15")}):
        cache = caches["default"]
        cache.set(key, {"ply": 3}, timeout=10)
        try:
            assert cache.get(key) == {"ply": 3}
        finally:
            cache.delete(key)


# -- Content Security Policy: the pages themselves ------------------------------------------


class InlineCode(HTMLParser):
    """Collects what ``script-src 'self'; style-src 'self'`` would block."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        # A data block (type application/json: the board script's data) is never run, so
        # script-src does not apply to it.
        data_block = values.get("type") == "application/json" and not values.get("src")
        if tag == "script" and not data_block and not (values.get("src") or "").startswith("/"):
            self.found.append(f"<script> without a same-site src: {attrs}")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name.startswith("on") or name.startswith("hx-on") or name == "style":
                self.found.append(f"<{tag} {name}=...>")
            if (value or "").strip().lower().startswith(("javascript:", "js:")):
                self.found.append(f"<{tag} {name}={value!r}>")


def page_urls(game_id: uuid.UUID) -> list[str]:
    """Every URL of the site's own patterns with no parameters or with a game id or a slug."""
    urls = []

    def walk(patterns: list, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace != "admin":
                    walk(pattern.url_patterns, f"{prefix}{pattern.namespace or ''}:")
            elif isinstance(pattern, URLPattern) and pattern.name:
                converters = pattern.pattern.converters
                kwargs: dict[str, object] = {}
                for name, converter in converters.items():
                    kind = type(converter).__name__
                    if kind == "UUIDConverter":
                        kwargs[name] = game_id
                    elif kind == "SlugConverter":
                        kwargs[name] = next(iter(GAMES))
                    elif kind == "IntConverter":
                        kwargs[name] = 1
                if len(kwargs) == len(converters):
                    urls.append(reverse(prefix.lstrip(":") + pattern.name, kwargs=kwargs))

    walk(get_resolver().url_patterns, "")
    return urls


@pytest.mark.django_db
def test_pages_run_only_their_own_scripts(client: Client) -> None:
    player = Player.objects.create()
    game = services.game_start(player=player, slug="beleaguered-castle", deal=1, now=NOW)
    owner = browser(player)
    urls = [*page_urls(game.pk), f"{game.get_absolute_url()}?select=t3"]
    urls += [reverse("games:rules", args=[slug]) for slug in GAMES]
    checked = 0
    for url in urls:
        response = owner.get(url, follow=True)
        if response.status_code != 200 or "html" not in response.headers["Content-Type"]:
            continue
        parser = InlineCode()
        parser.feed(response.content.decode())
        assert parser.found == [], url
        checked += 1

    assert checked >= 10


# -- web workers ----------------------------------------------------------------------------


@pytest.mark.parametrize(("cores", "workers"), [(1, 3), (2, 5), (4, 9), (64, 12)])
def test_an_app_server_runs_two_workers_per_core_and_one_more(
    monkeypatch: pytest.MonkeyPatch, cores: int, workers: int
) -> None:
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.setattr(capacity, "cores", lambda: cores)
    assert capacity.web_concurrency() == workers


def test_web_concurrency_sets_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    assert capacity.web_concurrency() == 3


@pytest.mark.parametrize("setting", ["", "7"])
def test_gunicorn_started_in_the_project_runs_the_sites_workers(setting: str) -> None:
    """``make serve`` and the README's deployment start gunicorn in the project's directory
    without ``--workers``: its ``gunicorn.conf.py`` counts them as the settings do (the
    solver's share of them, ``games.solver_jobs.solver_slots``)."""
    env = {key: value for key, value in os.environ.items() if key != "WEB_CONCURRENCY"}
    if setting:
        env["WEB_CONCURRENCY"] = setting
    printed = subprocess.run(
        [Path(sys.executable).with_name("gunicorn"), "--print-config", "castle_site.wsgi"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    workers = re.search(r"^workers\s+= (\d+)$", printed, re.MULTILINE)
    assert workers, printed
    expected = int(setting) if setting else min(2 * capacity.cores() + 1, 12)
    assert int(workers.group(1)) == expected


def test_several_workers_need_a_shared_cache_for_their_limits() -> None:
    """Each process's memory cache counts the rate limits alone: five workers, five times
    the limit (an attacker's 400 new games in 4.6 s got 346 through a limit of 120 a
    minute)."""
    problem = capacity.unshared_limits(workers=5, cache_url="", limits_on=True, debug=False)
    assert "CACHE_URL=redis://" in problem
    assert capacity.unshared_limits(workers=5, cache_url="locmem://", limits_on=True, debug=False)
    for allowed in (
        {"workers": 1, "cache_url": "", "limits_on": True, "debug": False},
        {"workers": 5, "cache_url": "redis://cache:6379/0", "limits_on": True, "debug": False},
        {"workers": 5, "cache_url": "", "limits_on": False, "debug": False},
        {"workers": 5, "cache_url": "", "limits_on": True, "debug": True},
    ):
        assert capacity.unshared_limits(**allowed) == ""  # type: ignore[arg-type]


def test_gunicorn_refuses_several_workers_without_a_shared_cache(tmp_path: Path) -> None:
    env = production_env(tmp_path, WEB_CONCURRENCY="3")
    env.pop("CACHE_URL", None)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    started = subprocess.run(
        [gunicorn, "castle_site.wsgi", "--no-control-socket", "--bind", f"127.0.0.1:{free_port()}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode != 0
    assert "3 web workers without a shared cache" in started.stderr


def test_gunicorn_writes_a_few_short_lines_for_a_flood_of_bad_requests(tmp_path: Path) -> None:
    """gunicorn's own error log, which the site's logging settings never reach, quoted each
    request line it could not parse: an attacker's pass padded them with 4,000 bytes and
    gunicorn wrote 18.5 MB of log a second (1.6 TB a day)."""
    env = production_env(tmp_path, WEB_CONCURRENCY="1")
    env.pop("CACHE_URL", None)
    port = free_port()
    log = tmp_path / "gunicorn.log"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [
        str(gunicorn),
        "castle_site.wsgi",
        "--no-control-socket",
        "--bind",
        f"127.0.0.1:{port}",
    ]
    with log.open("wb") as output:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        for _ in range(300):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
                connection.sendall(b"GET /" + b"\xff" * 3_000 + b" HTTP/1.1\r\nHost: h\r\n\r\n")
                assert connection.recv(100).startswith(b"HTTP/1.1 400")
    finally:
        server.terminate()
        server.wait(timeout=30)

    refused = [line for line in log.read_bytes().splitlines() if b"Invalid request" in line]
    assert 1 <= len(refused) <= 40
    assert max(len(line) for line in refused) < 1_000  # 300 characters, some of 2 bytes


@pytest.mark.parametrize(
    ("cache_url", "engine"),
    [
        ("", "castle_site.sessions"),
        ("locmem://", "castle_site.sessions"),
        ("redis://127.0.0.1:6379/0", "castle_site.cached_sessions"),
    ],
)
def test_sessions_are_cached_only_in_a_shared_cache(
    tmp_path: Path, cache_url: str, engine: str
) -> None:
    """A session ended in one process (log out everywhere, sign-up) stayed alive in the
    memory cache of the others: a copied cookie went on working on 20 of 30 requests."""
    env = production_env(tmp_path, CACHE_URL=cache_url)
    code = "from django.conf import settings; print(settings.SESSION_ENGINE)"
    printed = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert printed.stdout.strip() == engine, printed.stderr

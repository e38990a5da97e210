"""Bad input at every endpoint: random and malformed fields, wrong methods, other players'
games, forged sessions, missing or wrong CSRF tokens.

Every answer must be a 4xx (or a 2xx/3xx where the input is legitimately valid), never a
5xx, and no game may change unless its owner sent it a write with a valid CSRF token; a
move changes it exactly when the move was legal at the ply sent. Hypothesis runs every
example inside one database transaction (the ``db`` fixture cannot roll back between
examples), so each example snapshots the games before its request and checks after.
"""

import doctest
import logging
import re
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from io import BytesIO, StringIO
from typing import Any
from urllib.parse import quote, urlencode
from wsgiref.util import setup_testing_defaults

import pytest
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from castle_site import intake, logs
from castle_site.wsgi import application
from games import services
from games.forms import MoveForm
from games.models import Game, PlayedMove, Player
from games.rules import GAMES, MAX_DEAL, RulesError
from tools.loadtest import replay_problems

from .helpers import CSRF_SECRET, NOW, OUTCOMES, REQUESTS, STATUSES, browser

pytestmark = pytest.mark.django_db

FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    # Shrinking a request through the database can take minutes; every assertion prints the
    # whole request instead.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
IDENTITIES = ["owner", "stranger", "anonymous", "ghost", "forged"]
"""Who sends: the game's owner, another player, no session, a signed session for a player
that does not exist, a session cookie that is not signed."""


# -- the site's URLs ------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str
    route: str
    """As written in urls.py, include prefixes first: ``games/<uuid:game_id>/moves``."""
    converters: dict[str, Any]

    def path(self, arguments: dict[str, Any]) -> str:
        """The URL path with each ``<converter:name>`` replaced by its (quoted) argument,
        matching or not: a value the converter refuses makes a 404, as in a browser."""
        return "/" + PARAMETER.sub(
            lambda match: quote(str(arguments[match["name"]]), safe=""), self.route
        )


PARAMETER = re.compile(r"<(?:[^>:]+:)?(?P<name>[^>]+)>")


def routes() -> list[Route]:
    """Every named URL pattern of the site (Django's admin excepted)."""
    found = []

    def walk(patterns: list, names: str, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace != "admin":
                    namespace = f"{pattern.namespace}:" if pattern.namespace else ""
                    walk(pattern.url_patterns, names + namespace, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and pattern.name:
                route = prefix + str(pattern.pattern)
                found.append(Route(names + pattern.name, route, dict(pattern.pattern.converters)))

    walk(get_resolver().url_patterns, "", "")
    return found


ROUTES = sorted(
    routes(), key=lambda r: (r.name != "games:move", "game_id" not in r.converters, r.name)
)
"""The move endpoint first: hypothesis draws the first choice most often."""


# -- the games every example may touch ------------------------------------------------------


@dataclass
class World:
    owner: Player
    stranger: Player
    games: dict[str, Game] = field(default_factory=dict)

    SETUP = {
        "plain": ("owner", "beleaguered-castle", 1, False),
        "autoplay": ("owner", "citadel", 3, True),
        "reserves": ("owner", "archway", 5, False),
        "theirs": ("stranger", "streets-and-alleys", 7, False),
    }

    def ensure(self) -> None:
        """(Re)create any game an owner's delete removed."""
        for key, (who, slug, deal, autoplay) in self.SETUP.items():
            game = self.games.get(key)
            if game is None or not Game.objects.filter(pk=game.pk).exists():
                player = self.owner if who == "owner" else self.stranger
                self.games[key] = services.game_start(
                    player=player, slug=slug, deal=deal, autoplay=autoplay, now=NOW
                )

    def ids(self) -> list[uuid.UUID]:
        return [game.pk for game in self.games.values()]

    def snapshot(self) -> dict[uuid.UUID, tuple]:
        rows = {g["id"]: g for g in Game.objects.filter(pk__in=self.ids()).values()}
        moves: dict[uuid.UUID, list] = {pk: [] for pk in rows}
        for move in (
            PlayedMove.objects.filter(game__in=rows)
            .order_by("game", "ply")
            .values_list("game", "ply", "notation", "auto", "undone")
        ):
            moves[move[0]].append(move[1:])
        return {pk: (rows[pk], moves[pk]) for pk in rows}


@pytest.fixture
def world(db: None) -> World:
    world = World(owner=Player.objects.create(), stranger=Player.objects.create())
    world.ensure()
    return world


# -- strategies -----------------------------------------------------------------------------

TEXT = st.text(max_size=40)
LONG = st.text(min_size=300, max_size=5000) | st.just("t3-t6" * 4000)
ODD_TEXT = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "t3-t6\x00",
        "t3\u2013t6",
        "\uff54\uff13-\uff54\uff16",
        "T3-T6",
        " t3-t6 ",
        "t3-t6\n",
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "%00",
        "\u202et3-t6",
        "\U0001f0a1",
        "null",
        "[]",
        "{}",
    ]
)
NOTATION = st.from_regex(
    r"(t[0-9]{1,2}|f[0-9]?|r[0-9]?|r:[0-9TJQKA][CDHS]|x)-(t[0-9]{1,2}|f[0-9]?|r[0-9]?)",
    fullmatch=True,
)
PLY_TEXT = st.sampled_from(
    [
        "-1",
        "-0",
        "0",
        "1e3",
        "abc",
        "",
        " 7 ",
        "1.0",
        "1.5",
        "\u0661\u0662",
        "\uff11",
        "0x10",
        "+3",
        str(10**30),
        str(-(10**30)),
        "9" * 400,
        "100000",
        "100001",
        "NaN",
        "inf",
    ]
) | st.integers(-(10**6), 10**6).map(str)
SELECT = st.sampled_from(
    [
        "t1",
        "t3",
        "t8",
        "t9",
        "t10",
        "f1",
        "f9",
        "r1",
        "r:7H",
        "r:XX",
        "r:",
        "t2@1",
        "t3@6",
        "t1@99",
        "t@",
    ]
)
VALUE = st.one_of(TEXT, ODD_TEXT, NOTATION, PLY_TEXT, SELECT, LONG)
FIELD = st.sampled_from(
    [
        "move",
        "ply",
        "select",
        "autoplay",
        "option",
        "page",
        "record",
        "then",
        "display_name",
        "four_colour",
        "username",
        "password",
        "password1",
        "password2",
        "old_password",
        "new_password1",
        "new_password2",
        "next",
    ]
) | st.text(min_size=1, max_size=12)
FIELDS = st.dictionaries(FIELD, VALUE, max_size=6)
SESSION_JUNK = st.from_regex(r"[A-Za-z0-9:_.-]{1,120}", fullmatch=True)


def argument(converter: Any, world: World) -> st.SearchStrategy[Any]:
    kind = type(converter).__name__
    if kind == "UUIDConverter":
        return st.sampled_from(world.ids()) | st.uuids()
    if kind == "SlugConverter":
        return st.sampled_from(list(GAMES)) | st.from_regex(r"[-a-zA-Z0-9_]{1,40}", fullmatch=True)
    if kind == "IntConverter":
        return st.integers(0, MAX_DEAL + 2) | st.integers(0, 10**40)
    return st.from_regex(converter.regex, fullmatch=True)


def plausible(converter: Any) -> str:
    """A fixed value for a converter the fuzzer has no default for (a date, say)."""
    candidates = ["2026-11-22", "3", "x", "a-b"]
    return next((c for c in candidates if re.fullmatch(converter.regex, c)), "x")


# -- one request ----------------------------------------------------------------------------


@dataclass
class Request:
    identity: str
    csrf: str
    method: str
    path: str
    route: Route | None
    kwargs: dict[str, Any]
    query: dict[str, str]
    body: dict[str, str] | bytes
    encoding: str
    htmx: bool

    def __repr__(self) -> str:
        def short(value: object) -> str:
            text = repr(value)
            return text if len(text) <= 80 else f"{text[:60]}...({len(text)} chars)"

        fields = ", ".join(f"{k}={short(v)}" for k, v in vars(self).items() if k != "route")
        return f"Request({fields})"

    @property
    def resolves(self) -> bool:
        """Whether a view answers the path (the converters accept its values)."""
        try:
            resolve(self.path)
        except Resolver404:
            return False
        return True

    @property
    def game_id(self) -> uuid.UUID | None:
        value = self.kwargs.get("game_id")
        return value if isinstance(value, uuid.UUID) else None

    def owns_game(self, world: World) -> bool:
        """Whether the URL names a game of the sender's (the stranger owns one too)."""
        players = {"owner": world.owner.pk, "stranger": world.stranger.pk}
        owners = {game.pk: game.owner_id for game in world.games.values()}
        sender = players.get(self.identity)
        game_id = self.game_id
        return sender is not None and game_id is not None and owners.get(game_id) == sender

    def writes_as_owner(self, world: World) -> bool:
        """A write with a valid CSRF token to a URL naming one of the sender's games."""
        return self.owns_game(world) and self.csrf == "token" and self.method == "POST"


def client_for(request: Request, world: World, session: str) -> Client:
    players = {"owner": world.owner, "stranger": world.stranger, "ghost": Player(pk=uuid.uuid4())}
    return browser(
        players.get(request.identity),
        csrf=request.csrf != "none",
        session=session if request.identity == "forged" else "",
    )


def send(request: Request, world: World, session: str = "junk") -> Any:
    client = client_for(request, world, session)
    headers = {"HX-Request": "true"} if request.htmx else {}
    if request.csrf == "token":
        headers["X-CSRFToken"] = CSRF_SECRET
    elif request.csrf == "wrong":
        headers["X-CSRFToken"] = "wrongWrongWrongWrongWrongWrong12"
    path = request.path + (f"?{urlencode(request.query)}" if request.query else "")
    REQUESTS[request.route.name if request.route else "unrouted path"] += 1
    if isinstance(request.body, bytes):
        content_type = "application/x-www-form-urlencoded"
        response = client.generic(request.method, path, request.body, content_type, headers=headers)
    elif request.method == "POST" and request.encoding == "multipart":
        response = client.post(path, request.body, headers=headers)
    else:
        data = urlencode(request.body) if request.method not in ("GET", "HEAD") else ""
        content_type = "application/x-www-form-urlencoded"
        response = client.generic(request.method, path, data, content_type, headers=headers)
    STATUSES[response.status_code] += 1
    return response


@st.composite
def requests(draw: st.DrawFn, world: World, *, route: Route | None = None) -> Request:
    if route is None:
        route = draw(st.sampled_from([*ROUTES, None]))
    kwargs: dict[str, Any] = {}
    if route is None:
        segments = draw(st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=4))
        path = "/" + "/".join(quote(s, safe="") for s in segments)
    else:
        for name, converter in route.converters.items():
            kwargs[name] = draw(argument(converter, world))
        path = route.path(kwargs)
    body: dict[str, str] | bytes = draw(FIELDS)
    # Often a move that is legal right now, so owners really play. The draws come first and
    # always, so that hypothesis sees the same draws whatever the database holds.
    legal, pick, stale = draw(st.booleans()), draw(st.integers(0, 255)), draw(PLY_TEXT)
    game = next((g for g in world.games.values() if g.pk == kwargs.get("game_id")), None)
    if legal and game is not None and isinstance(body, dict):
        game.refresh_from_db()
        if moves := services.game_board(game).legal_moves():
            body["move"] = moves[pick % len(moves)].notation()
            body["ply"] = str(game.ply) if pick % 4 else stale
    if draw(st.integers(0, 19)) == 0:
        body = draw(st.binary(max_size=300))
    return Request(
        identity=draw(st.sampled_from(IDENTITIES)),
        csrf=draw(st.sampled_from(["token", "token", "none", "wrong"])),
        method=draw(st.sampled_from(["GET", "GET", "POST", "POST", "POST", *METHODS])),
        path=path,
        route=route,
        kwargs=kwargs,
        query=draw(st.dictionaries(st.sampled_from(["select", "ply", "page", "autoplay"]), VALUE)),
        body=body,
        encoding=draw(st.sampled_from(["multipart", "urlencoded"])),
        htmx=draw(st.booleans()),
    )


# -- what may happen ------------------------------------------------------------------------


def legal_move_outcome(request: Request, game: Game) -> str | None:
    """The position a legal move by its owner leads to, or None if this is not one."""
    if request.route is None or request.route.name != "games:move":
        return None
    if isinstance(request.body, bytes) or game.is_finished:
        return None
    form = MoveForm(request.body)
    if not form.is_valid():
        return None
    ply = form.cleaned_data["ply"]
    if ply is not None and ply != game.ply:
        return None
    board = services.game_board(game, checked=True)
    asked = form.asked()
    try:
        board.play(asked if isinstance(asked, str) else board.selected_move(*asked))
    except RulesError:
        return None
    if game.autoplay:
        board.autoplay()
    return board.layout()


def check(request: Request, world: World, session: str = "junk") -> None:
    world.ensure()
    before = world.snapshot()
    games = {pk: Game.objects.get(pk=pk) for pk in before}
    expected = {}
    if request.writes_as_owner(world) and request.game_id in games:
        expected[request.game_id] = legal_move_outcome(request, games[request.game_id])

    response = send(request, world, session)

    status = response.status_code
    assert status < 500, (status, request)
    after = world.snapshot()
    for pk, state in before.items():
        changed = after.get(pk) != state
        if pk not in expected:
            assert not changed, f"game {pk} changed: {request}"
            continue
        if (position := expected[pk]) is not None:
            assert status in (200, 303), (status, request)
            assert changed and after[pk][0]["position"] == position, request
            OUTCOMES["legal moves by owners, stored"] += 1
        elif request.route and request.route.name == "games:move":
            assert not changed, f"an illegal move changed game {pk}: {request}"
        if changed and position is None:
            OUTCOMES["other owner writes (undo, redo, restart, delete...)"] += 1
        if pk in after and changed:
            _, problems = replay_problems(Game.objects.filter(pk=pk))
            assert problems == [], request
    if request.method in UNSAFE and request.csrf != "token" and request.resolves:
        # A method no page takes is refused as such (castle_site.middleware), token or not.
        assert status == (403 if request.method == "POST" else 405), (status, request)
    if request.method in UNSAFE and request.game_id in before and not request.owns_game(world):
        assert 400 <= status < 500, (status, request)


# -- the tests ------------------------------------------------------------------------------


@settings(FUZZ, max_examples=900)
@given(data=st.data(), session=SESSION_JUNK)
def test_random_requests_to_every_endpoint(world: World, data: st.DataObject, session: str) -> None:
    world.ensure()
    check(data.draw(requests(world)), world, session)


MOVE_ROUTE = next(route for route in ROUTES if route.name == "games:move")


@st.composite
def owner_moves(draw: st.DrawFn, world: World) -> Request:
    """The owner's move POSTs to one of the games: half of them legal at the ply sent, the
    rest with a notation, a ply or a selection that is not."""
    key = draw(st.sampled_from(sorted(world.games)))
    extra, kind, pick = draw(FIELDS), draw(st.integers(0, 5)), draw(st.integers(0, 255))
    notation, junk, ply_text = draw(NOTATION), draw(VALUE), draw(PLY_TEXT)
    select = draw(st.none() | SELECT | VALUE)
    to = draw(st.none() | st.sampled_from(["t1", "t8", "t10", "f", "f2", "c1"]) | VALUE)
    game = world.games[key]
    game.refresh_from_db()
    board = services.game_board(game)
    moves = board.legal_moves()
    move = moves[pick % len(moves)].notation() if moves and kind < 3 else notation
    body = {
        **(extra if kind == 5 else {}),
        "move": junk if kind == 4 else move,
        "ply": ply_text if kind == 2 else str(game.ply),
    }
    if kind == 3 and moves and pick % 2:  # the board script's way: the selection and its pile
        chosen = moves[pick % len(moves)]
        body.pop("move")
        select, to = board.selection(chosen), chosen.target
    if select is not None:
        body["select"] = select
    if to is not None:
        body["to"] = to
    return Request(
        identity="owner",
        csrf="token",
        method="POST",
        path=f"{game.get_absolute_url()}moves",
        route=MOVE_ROUTE,
        kwargs={"game_id": game.pk},
        query={},
        body=body,
        encoding=draw(st.sampled_from(["multipart", "urlencoded"])),
        htmx=draw(st.booleans()),
    )


@settings(FUZZ, max_examples=500)
@given(data=st.data())
def test_owner_moves_with_random_fields(world: World, data: st.DataObject) -> None:
    world.ensure()
    check(data.draw(owner_moves(world)), world)


@pytest.mark.parametrize("identity", ["owner", "stranger", "anonymous"])
def test_every_method_on_every_url(world: World, identity: str) -> None:
    for route in ROUTES:
        for method in METHODS:
            for csrf in ("token", "none") if method in UNSAFE else ("token",):
                world.ensure()  # the owner's POST to delete removes the game
                game = world.games["plain"]
                kwargs = {}
                for name, converter in route.converters.items():
                    kind = type(converter).__name__
                    known = {"UUIDConverter": game.pk, "SlugConverter": game.slug}
                    kwargs[name] = known.get(kind) or plausible(converter)
                path = route.path(kwargs)
                request = Request(
                    identity, csrf, method, path, route, kwargs, {}, {}, "urlencoded", False
                )
                check(request, world)


@pytest.mark.parametrize("csrf", ["none", "wrong"])
def test_a_legal_move_without_a_valid_csrf_token_is_refused(world: World, csrf: str) -> None:
    game = world.games["plain"]
    route = MOVE_ROUTE
    body = {"move": "t3-t6", "ply": str(game.ply)}
    request = Request(
        "owner", csrf, "POST", f"{game.get_absolute_url()}moves", route, {"game_id": game.pk},
        {}, body, "multipart", True,
    )  # fmt: skip

    check(request, world)

    game.refresh_from_db()
    assert game.ply == 0


CHARSETS = [
    "application/x-www-form-urlencoded; charset=utf-16",
    "application/x-www-form-urlencoded; charset=latin-1",
    "multipart/form-data; boundary=XX; charset=base64",
    "x; charset=base64",
    "x; charset=idna",
]


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("content_type", CHARSETS)
def test_a_request_in_a_charset_other_than_utf8_is_a_400(
    world: World, method: str, content_type: str
) -> None:
    """Django decodes the query in the charset a request names as it makes the request,
    before any middleware: ``base64`` or ``idna`` raised there, a 500 for any URL and method
    (an attacker's pass: 295 a second, 46 GB of log a day); a form in another charset failed
    in the CSRF check, whose error pages read it again. The site's WSGI application (what
    gunicorn and runserver serve) refuses them first."""
    game = world.games["plain"]
    before = world.snapshot()
    body = urlencode({"move": "t3-t6", "ply": "0", "csrfmiddlewaretoken": CSRF_SECRET}).encode()
    for path in [f"{game.get_absolute_url()}moves", "/healthz", "/import/", "/accounts/login/"]:
        environ: dict[str, Any] = {}
        setup_testing_defaults(environ)
        environ.update(
            REQUEST_METHOD=method,
            PATH_INFO=path,
            QUERY_STRING="a=1",
            CONTENT_TYPE=content_type,
            CONTENT_LENGTH=str(len(body)),
            HTTP_COOKIE=f"csrftoken={CSRF_SECRET}",
            SERVER_NAME="testserver",
        )
        environ["wsgi.input"] = BytesIO(body)
        statuses: list[str] = []

        answer = b"".join(application(environ, lambda code, _, seen=statuses: seen.append(code)))

        assert statuses == ["400 Bad Request"], (method, path)
        assert b"reads requests in UTF-8" in answer
    assert world.snapshot() == before


def test_a_body_larger_than_any_form_is_refused_before_it_is_read(world: World) -> None:
    """Django wrote a file part of any size to disk before the CSRF check refused its
    request, at any URL (an attacker's pass: three 2.5 GB uploads at once held every worker
    and the health check 31 s). A body past 1 MB is refused unread."""
    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    unread = BytesIO(b"x" * 16)
    environ.update(
        REQUEST_METHOD="POST",
        PATH_INFO="/no/such/url",
        CONTENT_TYPE="multipart/form-data; boundary=XX",
        CONTENT_LENGTH=str(2_500_000_000),
        HTTP_COOKIE=f"csrftoken={CSRF_SECRET}",
        SERVER_NAME="testserver",
    )
    environ["wsgi.input"] = unread
    statuses: list[str] = []

    b"".join(application(environ, lambda code, _: statuses.append(code)))

    assert statuses == ["413 Content Too Large"]
    assert unread.tell() == 0


@pytest.fixture
def log_of() -> Iterator[Callable[[str], StringIO]]:
    """What a logger's handler writes from now on, its rate limit's buckets emptied (each
    test starts with a full burst)."""
    swapped: list[tuple[logging.StreamHandler[Any], Any]] = []

    def capture(name: str) -> StringIO:
        logger = logging.getLogger(name)
        while not logger.handlers and logger.parent:  # the handler its lines propagate to
            logger = logger.parent
        handler = logger.handlers[0]
        assert isinstance(handler, logging.StreamHandler)
        for capped in handler.filters:
            if isinstance(capped, logs.Capped):
                capped._buckets.clear()
        log = StringIO()
        swapped.append((handler, handler.setStream(log)))
        return log

    yield capture
    for handler, stream in swapped:
        handler.setStream(stream)


def test_a_suspicious_request_is_logged_in_one_line(log_of: Callable[[str], StringIO]) -> None:
    """Django logs a request it refuses as suspicious (here more than 1,000 form fields) at
    ERROR with its traceback: 1.3-1.7 KB of log for each 400, which no limit counts."""
    body = "&".join(f"f{i}=1" for i in range(1_001))
    log = log_of("django.security")

    response = Client().post("/import/", body, content_type="application/x-www-form-urlencoded")

    assert response.status_code == 400
    logged = log.getvalue()
    assert "TooManyFieldsSent" in logged and "Traceback" not in logged
    assert len(logged.strip().splitlines()) == 1


def test_a_body_django_cannot_parse_is_logged_in_one_line(
    log_of: Callable[[str], StringIO],
) -> None:
    """Django logs a multipart body without a boundary as a bad request (a warning) with the
    parser's traceback, which no cut reached: 2.2 KB of log a request (an attacker's pass,
    2.9 GB a day from three workers)."""
    log = log_of("django.request")
    client = browser()

    response = client.post(
        "/import/",
        "x",
        content_type="multipart/form-data",
        HTTP_X_CSRFTOKEN=CSRF_SECRET,
    )

    assert response.status_code == 400
    logged = log.getvalue()
    assert "Unable to parse request body" in logged and "Traceback" not in logged
    assert len(logged.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("logger", "path", "host", "status"),
    [
        ("django.security", "/", "h" * 8_000, 400),
        ("django", "/" + "p" * 4_000, "testserver", 404),
    ],
    ids=["8 KB host", "4 KB path"],
)
def test_a_flood_of_refused_requests_writes_a_few_short_lines(
    log_of: Callable[[str], StringIO], logger: str, path: str, host: str, status: int
) -> None:
    """An attacker's pass wrote 16.4 KB of log for each request with an 8 KB ``Host`` (1,020
    a second: 1.45 TB a day) and 4.1 KB for each 404 of a 4 KB path; no rate limit counts
    them. Each line is now cut short, and a logger writes a few a second."""
    log = log_of(logger)
    client = Client()

    for _ in range(300):
        assert client.get(path, HTTP_HOST=host).status_code == status

    lines = log.getvalue().splitlines()
    assert 1 <= len(lines) <= 40
    assert max(len(line) for line in lines) < 500
    assert "characters)" in lines[0]


def test_any_logger_writes_a_few_lines_a_second(log_of: Callable[[str], StringIO]) -> None:
    """gunicorn's own warning for each HEAD answered with a body went to the root handler,
    which no cap held (an attacker's pass: 3,679 a second, 47 GB of log a day)."""
    log = log_of("gunicorn.http.wsgi")

    for _ in range(300):
        logging.getLogger("gunicorn.http.wsgi").warning("WSGI app sent body bytes on a HEAD")

    assert 1 <= len(log.getvalue().splitlines()) <= 40


def test_a_head_request_is_answered_without_a_body() -> None:
    """What gunicorn warned of: Django renders the page's body for a HEAD too."""
    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ.update(REQUEST_METHOD="HEAD", PATH_INFO="/", SERVER_NAME="testserver")
    statuses: list[str] = []

    answer = application(environ, lambda code, headers: statuses.append(code))
    body = b"".join(answer)
    getattr(answer, "close", lambda: None)()

    assert statuses == ["200 OK"] and body == b""


def test_the_intake_examples_run() -> None:
    """``castle_site.intake``'s docstring examples (the doctest run covers ``games`` only)."""
    assert doctest.testmod(intake).failed == 0


def test_a_request_in_utf8_reaches_the_site() -> None:
    """The test above can fail: the same request in UTF-8 (as htmx names it) is answered."""
    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ.update(
        PATH_INFO="/healthz",
        QUERY_STRING="a=1",
        CONTENT_TYPE="application/x-www-form-urlencoded; charset=UTF-8",
        SERVER_NAME="testserver",
    )
    statuses: list[str] = []

    b"".join(application(environ, lambda status, headers: statuses.append(status)))

    assert statuses == ["200 OK"]


def test_other_players_cannot_touch_a_game(world: World) -> None:
    game = world.games["theirs"]
    for route in ROUTES:
        if "game_id" not in route.converters:
            continue
        path = route.path({"game_id": game.pk})
        move = services.game_board(game).legal_moves()[0].notation()
        for identity in ("owner", "anonymous", "ghost"):
            body = {"move": move, "ply": "0", "autoplay": "1"}
            request = Request(
                identity, "token", "POST", path, route, {"game_id": game.pk}, {}, body,
                "urlencoded", False,
            )  # fmt: skip
            check(request, world)


FORMS: dict[str, dict[str, str]] = {
    "games:move": {"move": "t3-t6", "ply": "0"},
    "games:undo": {"ply": "1"},
    "games:redo": {"ply": "0"},
    "games:restart": {"ply": "1"},
    "games:autoplay": {"autoplay": "1"},
    "games:hint": {},
    "games:delete": {},
    "games:import": {"record": "game: citadel\ndeal: 3\n", "then": "continue"},
    "games:signup": {
        "username": "double",
        "password1": "long enough pw 1",
        "password2": "long enough pw 1",
    },
    "games:login": {"username": "double", "password": "long enough pw 1"},
    "games:password_change": {
        "old_password": "long enough pw 1",
        "new_password1": "long enough pw 2",
        "new_password2": "long enough pw 2",
    },
    "games:profile": {"display_name": "Double Click"},
    "games:logout": {},
}
"""A valid submission of every form (POST) on the site."""


@pytest.mark.parametrize("htmx", [False, True])
def test_every_form_submitted_twice_answers_without_a_5xx_and_stores_once(
    world: World, htmx: bool
) -> None:
    posting = sorted(
        route.name for route in ROUTES if route.name in FORMS or route.name.endswith("_play")
    )
    assert set(FORMS) <= set(posting), "a form of the site has no double-submission case"
    client = browser(world.owner)
    hx = {"HX-Request": "true"} if htmx else {}
    for name in [*FORMS]:  # in order: the account exists before its log-in and password
        world.ensure()
        game = world.games["plain"]
        route = next(route for route in ROUTES if route.name == name)
        path = route.path({"game_id": game.pk})
        statuses = []
        for _ in range(2):
            # Logging in rotates the CSRF secret: send the cookie's current one.
            token = client.cookies["csrftoken"].value
            response = client.post(path, FORMS[name], headers={"X-CSRFToken": token, **hx})
            statuses.append(response.status_code)
        REQUESTS[name] += 2
        assert all(status < 500 for status in statuses), (name, statuses)
        if name == "games:move":
            assert game.played_moves.count() == 1
            assert statuses[1] in (409, 422), statuses
        if name == "games:signup":
            assert statuses[1] == 400 or statuses[0] == statuses[1] == 302
    assert Player.objects.filter(display_name="Double Click").count() <= 1

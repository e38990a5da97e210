"""Rate limits: how often one client (an IP address) and one player may start costly work.

Counting is django-ratelimit's (fixed windows of counters in the rate limits' cache, which
every app server shares in production: ``CACHE_URL=redis://...``), but for the game's
actions, the most frequent requests, which ``PlayingCount`` counts in batches; this module
names the limits and answers a client over one with ``429 Too Many Requests``, a
``Retry-After`` header and a sentence, in the status line for htmx and as a page otherwise.

The numbers (README, "Rate limits") are far above what a fast honest player does: they
stop scripts, not people. Page views are never limited; moves only far above any hand.
"""

from __future__ import annotations

import functools
import ipaddress
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django_ratelimit.core import get_usage

from games import status_line
from games.players import session_player_id
from games.presentation import seconds_text

View = Callable[..., HttpResponseBase]


IPV6_PREFIX = 64
"""An IPv6 client is counted by its /64 network: one host is usually given a whole /64, so
counting single addresses would give a script billions of fresh ones (django-ratelimit's
own ``RATELIMIT_IPV6_MASK`` default)."""


UNKNOWN_CLIENT = "0.0.0.0"
"""``client_ip`` of a request that names no address: every such client counts as one."""


def client_ip(request: HttpRequest) -> str:
    """The client, as the limits count it: ``settings.CLIENT_IP_HEADER`` (set by a trusted
    proxy in front, e.g. ``HTTP_X_REAL_IP``) when it holds an address, else the socket's
    peer; an IPv6 address as its /64 network (``IPV6_PREFIX``), or as the IPv4 address it
    carries (``_ipv4_inside``); ``UNKNOWN_CLIENT`` without one.

    Of a list (``X-Forwarded-For``), the last address counts: the one the proxy added. The
    ones before it came from the client, which may write anything there."""
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    forwarded = request.META.get(header, "") if header else ""
    for candidate in (forwarded, request.META.get("REMOTE_ADDR", "")):
        try:
            address = ipaddress.ip_address(candidate.rsplit(",", 1)[-1].strip())
        except ValueError:
            continue
        if isinstance(address, ipaddress.IPv6Address):
            if inner := _ipv4_inside(address):
                return str(inner)
            return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
        return str(address)
    return UNKNOWN_CLIENT  # no address at all (a Unix socket without a proxy header)


def known_client_ip(request: HttpRequest) -> str:
    """``client_ip``, or empty for a request that names no address: what may be kept of a
    client as its own (a daily's look, ``daily.daily_start``), where ``UNKNOWN_CLIENT``
    would make every such client one."""
    address = client_ip(request)
    return "" if address == UNKNOWN_CLIENT else address


def _ipv4_inside(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries: mapped (``::ffff:a.b.c.d``), 6to4 (``2002::/16``)
    or Teredo (``2001::/32``, the client's). A 6to4 prefix is a /48 made of one IPv4 address:
    counted by /64, one IPv4 address had 65,536 keys of its own (an attacker's pass)."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    return None


def _ip_key(group: str, request: HttpRequest) -> str:
    return client_ip(request)


def _player_key(group: str, request: HttpRequest) -> str:
    player_id = session_player_id(request)
    return str(player_id) if player_id else ""


def _account_key(group: str, request: HttpRequest) -> str:
    """The account a log-in form names, as Django looks it up (NFKC, as its username field
    reads it: a name in full-width letters is the same name), case-folded and bounded: throttles
    guessing one account's password from many addresses."""
    name = unicodedata.normalize("NFKC", request.POST.get("username", ""))
    return name.strip().casefold()[:150]


def _account_ip_key(group: str, request: HttpRequest) -> str:
    """The account a log-in form names, from this client: one address's guesses at it."""
    account = _account_key(group, request)
    return f"{account} {client_ip(request)}" if account else ""


KEYS = {
    "ip": _ip_key,
    "player": _player_key,
    "account": _account_key,
    "account-ip": _account_ip_key,
}


@dataclass(frozen=True)
class Limit:
    """``rate`` requests (django-ratelimit's ``"30/m"``) per ``key`` ("ip", "player" or
    "account") for the requests whose method is in ``methods``."""

    key: str
    rate: str
    methods: tuple[str, ...] = ("GET", "HEAD", "POST")


def over_limit(
    request: HttpRequest, group: str, limits: tuple[Limit, ...], *, count: bool = True
) -> int | None:
    """Count this request against every limit (unless ``count`` is false: only look); the
    seconds to wait if one is exceeded (reached, when only looking)."""
    wait: int | None = None
    for limit in limits:
        if request.method not in limit.methods:
            continue
        key = KEYS[limit.key]
        if not key(group, request):
            continue  # no player (or account) yet: the IP limit still counts
        usage = get_usage(
            request, group=f"{group}:{limit.key}", key=key, rate=limit.rate, increment=count
        )
        if usage is not None and (
            usage["should_limit"] or (not count and usage["count"] >= usage["limit"])
        ):
            wait = max(wait or 1, int(usage["time_left"]), 1)
    return wait


def rate_limited(group: str, *limits: Limit) -> Callable[[View], View]:
    """Decorate a view: over any of ``limits``, answer 429 without calling it."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            wait = over_limit(request, group, limits)
            if wait is not None:
                return too_many(request, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def too_many(request: HttpRequest, wait: int, message: str = "") -> HttpResponse:
    """429 with ``Retry-After``: in the status line for htmx, as a page otherwise."""
    message = message or (
        f"Too many requests from you in a short time: please wait {seconds_text(wait)} and try"
        " again."
    )
    if getattr(request, "htmx", False):
        response = status_line.refusal(request, message, 429)
    else:
        response = render(request, "games/error.html", {"message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


# -- the limits (README, "Rate limits") ---------------------------------------------------

PLAY = (Limit("ip", "120/m"), Limit("ip", "3000/d"), Limit("player", "30/m"))
"""Starting games (``/play/...``, the daily's play link): a new deal every 2 s per player.
Each start without a cookie stores a player, its session and a game (some 1.3 KB, kept 30
days unplayed): 120 a minute all day long came to 172,800 a day from one address, some
7 GB kept; the daily cap bounds it to 3,000 (a game every 29 s, all day)."""
IMPORT = (
    Limit("ip", "30/m", ("POST",)),
    Limit("ip", "200/d", ("POST",)),
    Limit("player", "10/m", ("POST",)),
)
"""Imports: each stores up to 2,000 move rows, kept with its game. The daily cap bounds what
one address can store (400,000 rows a day, where 30 a minute all day long came to 86
million); pasting records one by one, a player never meets it."""
PLAYING_PER_MINUTE = 600
"""Moves, undos, redos, restarts and the auto-play switch from one address, together: each
stores move rows (kept with the game) or changes them. A script that sent one card back and
forth stored 324 rows a second, 28 million a day from one address; now at most some
900,000, about the imports' daily cap. Ten a second for a minute is beyond any hand (the
board script sends one at a time), and leaves room for many players behind one address."""
PLAYING_ROWS = 20
"""Move rows an action writes or changes for each count past its first: a restart of a
2,000-move game and the Undo that brings it back each changed 2,000 rows, 35 ms of the
server's CPU (a move: 3 ms), yet counted one action each: 20,000 rows changed a second from
one address (an attacker's pass). Now each such action counts 101, an ordinary move one."""
PLAYING_BATCH = 10
"""Actions a process counts on its own before it adds them to the shared count."""


class PlayingCount:
    """``PLAYING_PER_MINUTE``, counted per process and added to the shared cache every
    ``PLAYING_BATCH`` actions of an address: django-ratelimit's two cache round trips per
    request (``add``, then ``incr``: some 0.5 ms on Redis) cost the move, the site's most
    frequent request, 17 % of its throughput at saturation (``make loadtest``: 221-227
    against 268 answered a second). An address may so play up to ``PLAYING_BATCH - 1``
    actions a minute more per process than the limit, which is no matter for a limit that
    bounds storage. Fixed one-minute windows, as django-ratelimit's."""

    def __init__(self) -> None:
        self.window = 0
        self.unshared: dict[str, int] = {}
        self.over: set[str] = set()
        self.lock = threading.Lock()

    def forget(self) -> None:
        """Drop this process's counts (a new window does; so does each test)."""
        with self.lock:
            self.window, self.unshared, self.over = 0, {}, set()

    def wait(self, request: HttpRequest) -> int | None:
        """Count this action of the request's client: the seconds to wait if over."""
        return self._count(request, 1, refuse=True)

    def charge(self, request: HttpRequest, rows: int) -> None:
        """Count what the request's action did past one action: one more for each
        ``PLAYING_ROWS`` move rows it wrote or changed. The client's next action waits if
        this took it over."""
        if more := rows // PLAYING_ROWS:
            self._count(request, more, refuse=False)

    def _count(self, request: HttpRequest, actions: int, *, refuse: bool) -> int | None:
        if not getattr(settings, "RATELIMIT_ENABLE", True):
            return None
        now = time.time()
        window, into = divmod(int(now), 60)
        address = client_ip(request)
        with self.lock:
            if window != self.window:
                self.window, self.unshared, self.over = window, {}, set()
            if refuse and address in self.over:
                return 60 - into
            count = self.unshared.get(address, 0) + actions
            if count < PLAYING_BATCH:
                self.unshared[address] = count
                return None
            self.unshared[address] = 0
        shared = caches[settings.RATELIMIT_USE_CACHE]
        key = f"playing:{address}:{window}"
        shared.add(key, 0, timeout=120)
        if shared.incr(key, count) <= PLAYING_PER_MINUTE:
            return None
        with self.lock:
            if window == self.window:
                self.over.add(address)
        return 60 - into


PLAYING = PlayingCount()


def playing_limited(view: View) -> View:
    """Decorate a game action's view: over ``PLAYING_PER_MINUTE``, answer 429."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST" and (wait := PLAYING.wait(request)) is not None:
            return too_many(request, wait)
        return view(request, *args, **kwargs)

    return wrapped


HINT = (Limit("ip", "120/m"), Limit("player", "60/m"))
"""Every Hint: a player who follows the hints (H, then the hinted card and its destination)
takes a second or more each, and those answers come from a cache or a known line, a few
milliseconds each; the solver's own runs have their limit below."""
SOLVE = (Limit("ip", "20/m"), Limit("player", "10/m"))
"""Hints on positions nobody had asked about (the solver runs, up to a second each)."""
ANALYSE = (Limit("ip", "60/m"), Limit("player", "12/m"))
SIGNUP = (Limit("ip", "10/h", ("POST",)),)
LOGIN = (Limit("ip", "30/15m", ("POST",)),)
"""Every attempt at the site's log-in and the admin's (``login_limited``) from one address:
each costs a password hash, some 0.7 s of a core."""
LOGIN_FAILURES = (Limit("account-ip", "10/15m", ("POST",)), Limit("account", "100/15m", ("POST",)))
"""Failed log-ins of one account, from one address and from all of them. Only a wrong
password counts, never an attempt a limit refused: when every attempt counted, one address
sending eleven wrong guesses every 15 minutes kept the account's owner (staff on the admin
too) locked out for good, from everywhere. Now the owner is locked out only by a hundred
wrong guesses in 15 minutes, from ten addresses or more."""


def login_limited(login: View) -> View:
    """Decorate a log-in view: over ``LOGIN``, or with ``LOGIN_FAILURES`` reached, answer
    429 without checking the password; a failed attempt (the form again, 200) counts
    against the account."""

    @functools.wraps(login)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            return login(request, *args, **kwargs)
        wait = over_limit(request, "login", LOGIN)
        if wait is None:
            wait = over_limit(request, "login-failed", LOGIN_FAILURES, count=False)
        if wait is not None:
            return too_many(request, wait)
        response = login(request, *args, **kwargs)
        if response.status_code == 200:  # the form again: the password was wrong
            over_limit(request, "login-failed", LOGIN_FAILURES)
        return response

    return wrapped


PASSWORD_CHANGE = (Limit("ip", "30/15m", ("POST",)), Limit("player", "10/15m", ("POST",)))
"""Password changes, right or wrong, from one address and of one account: each checks the
old password, a password hash (some 0.7 s of a core). Unlimited, one logged-in account kept
every worker busy (``/healthz`` from 2 ms to 800 ms, an attacker's pass), and whoever held a
copy of its cookie could guess the password past the log-in's limits."""
PROFILE = (Limit("ip", "60/h", ("POST",)),)
"""Saving a name or preferences: names are unique and never expire, so a script must not
claim them by the hundred."""
NEW_VERDICT = (Limit("ip", "40/h"),)
"""Games started on a deal nobody asked about yet (a typed deal number, or "any deal"): each
queues the deal's verdict, up to some 15 s of the task worker's time (``pools.verdict_nodes``).
Only such a verdict is counted, and over the limit the game still starts, without its badge."""
NEW_ANALYSIS = (Limit("ip", "10/5m"),)
"""Analyses of lines nobody asked about yet (up to 10 s of the task worker's time each):
one client holds at most a third of ``solver_jobs.MAX_PENDING_ANALYSES`` (two thirds across
a window's edge), so others always find room."""

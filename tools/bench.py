"""``make bench``: engine throughput, then the site under gunicorn driven over HTTP.

Prints figures; asserts nothing (speed targets live here, never in timed tests):

- engine: legal-move generation + play + undo in random playouts, moves per second per game
  (target: at least 50,000/s on Beleaguered Castle);
- HTTP: move POSTs against a trivial view (``/healthz``) in the same run, requests per
  second and latency, and their ratio (target >= 0.4); beside them the floor of a move (a
  bench-only endpoint doing only what every move must: session, CSRF, form, one row read,
  one check, one write) and its ratio, the ceiling of a move's on this machine; the move
  played and stored as the site does but answered with two bytes (what its answer costs);
  each with the CPU it cost per request, the server's and the simulated players';
  the size of a move response as the board script gets it (target <= 2 KB);
- browser: Debian's Chromium plays every game against the same gunicorn: requests per card
  move (must be 1), click->repaint median and p90 for selecting a card and for a move
  (target <= 25 ms median on localhost), move response bytes per game (target <= 2 KB
  uncompressed) and a game page's first load with all its assets (target <= 30 KB
  compressed).
"""

from __future__ import annotations

import argparse
import http.client
import math
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.presentation import script_moves
from games.rules import GAMES, Board

ROOT = Path(__file__).resolve().parent.parent


def engine_throughput(slug: str, seconds: float) -> float:
    """Moves per second of random playouts through the checked public API."""
    rng = random.Random(slug)
    deal = 1
    board = Board(slug, deal)
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        moves = board.legal_moves()
        if not moves or board.ply >= 200:
            deal += 1
            board = Board(slug, deal)
            continue
        board.play(rng.choice(moves))
        count += 1
        if rng.random() < 0.25:
            board.undo()
            count += 1
    return count / elapsed


# -- HTTP -----------------------------------------------------------------------------------


class Browser:
    """One simulated player: a connection to 127.0.0.1 (kept alive where the server allows)
    with its own session and CSRF cookie. Browsers built with the same ``cookies`` dict are
    one player's tabs on several servers."""

    def __init__(
        self, port: int, *, cookies: dict[str, str] | None = None, timeout: float = 30
    ) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.cookies: dict[str, str] = {} if cookies is None else cookies

    def request(
        self, method: str, path: str, body: str = "", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """Send one request; a lost connection raises (``OSError`` or ``HTTPException``) and
        the next request opens a new one."""
        all_headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        all_headers.update(headers or {})
        try:
            self.connection.request(method, path, body=body, headers=all_headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            raise
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, dict(response.getheaders()), data


STUCK_PANEL = re.compile(rb'class="panel stuck" open data-key="([\w-]+)"')


def panel_after(answer: bytes, shown: str) -> str:
    """The stuck panel's key the board script sends back (``Castle-Panel``) after
    ``answer``: the panel it draws, the one shown (``shown``) when it says to keep it,
    else none."""
    if drawn := STUCK_PANEL.search(answer):
        return drawn[1].decode()
    return shown if b"data-panel-kept" in answer else ""


class Player:
    """Plays random legal moves of one game after another through the move endpoint.

    Random play reaches a dead end after a few dozen moves, so the games are started
    before the clock runs (``ready`` of them): the figures measure move POSTs, not the
    pages that start games. A player who runs out starts more, inside the measurement.
    """

    def __init__(self, port: int, slug: str, seed: int, *, ready: int = 1) -> None:
        self.browser = Browser(port)
        self.slug = slug
        self.rng = random.Random(seed)
        self.token = ""
        self.controls = ""
        self.panel = ""
        self.waiting = [self.start() for _ in range(ready)]
        self.url, self.board = self.waiting.pop()

    def start(self) -> tuple[str, Board]:
        """Start a game of a random deal: its URL and its board."""
        deal = self.rng.randrange(1, 10**9)
        status, headers, _ = self.browser.request("GET", f"/play/{self.slug}/{deal}/?autoplay=0")
        assert status == 302, status
        url = headers["Location"]
        if not self.token:
            _, _, page = self.browser.request("GET", url)
            match = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
            assert match, "no CSRF token on the game page"
            self.token = match.group(1).decode()
        return url, Board(self.slug, deal)

    def move(self, endpoint: str = "moves") -> tuple[int, int]:
        """POST one move; return (status, response size). ``endpoint`` ``"moves"`` is the
        site's move; ``"floor"`` and ``"unanswered"`` send the same request to the
        benchmark's endpoints (``tools.bench_urls``). The floor plays nothing, so the player
        plays the move on its own board and takes it back: both cost it about the same, and
        its board stays the game's."""
        moves = self.board.legal_moves()
        while not moves or self.board.ply >= 150:
            # Some deals open without a legal move (auto-play is off): take the next game.
            self.url, self.board = self.waiting.pop() if self.waiting else self.start()
            self.panel = ""
            moves = self.board.legal_moves()
        move = self.rng.choice(moves)
        body = f"move={move.notation().replace(':', '%3A')}&ply={self.board.ply}"
        game_id = self.url.rstrip("/").rsplit("/", 1)[-1]
        path = f"{self.url}moves" if endpoint == "moves" else f"/bench/{endpoint}/{game_id}"
        status, _, data = self.browser.request(
            "POST",
            path,
            body,
            {
                "HX-Request": "true",
                "X-CSRFToken": self.token,
                "Castle-Controls": self.controls,
                "Castle-Panel": self.panel,
            },
        )
        if endpoint == "floor":
            self.board.play(move)
            self.board.pop()
        elif status == 200:
            self.board.play(move)
            if found := re.search(rb'data-key="(\d+)"', data):
                self.controls = found.group(1).decode()
            self.panel = panel_after(data, self.panel)
        return status, len(data)


def drive(
    make: Callable[[int], Callable[[], int]], clients: int, seconds: float
) -> tuple[float, list[float], int]:
    """Run ``clients`` threads calling their action for ``seconds``: (req/s, latencies, errors)."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    actions = [make(i) for i in range(clients)]
    deadline = time.perf_counter() + seconds

    def run(i: int) -> None:
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            status = actions[i]()
            latencies[i].append(time.perf_counter() - start)
            if status >= 400:
                errors[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    begin = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - begin
    flat = [x for each in latencies for x in each]
    return len(flat) / elapsed, flat, sum(errors)


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user and system) used so far by process ``pid`` and its children (gunicorn's
    master and its workers), from Linux's /proc; None where there is no /proc."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        total = 0
        for each in [pid, *map(int, children)]:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    except (OSError, ValueError, IndexError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """What one measurement cost in CPU, per request: the server's (gunicorn's processes)
    and this process's (the simulated players). A ratio of throughputs says how much more a
    request costs only when the machine is busy; these say where the time went, and how
    busy the machine was."""

    def __init__(self, server_pid: int | None) -> None:
        self.server_pid = server_pid
        self.server: float | None = None
        self.client = 0.0
        self.started = 0.0

    def start(self) -> None:
        self.server = None if self.server_pid is None else cpu_seconds(self.server_pid)
        self.client = time.process_time()
        self.started = time.perf_counter()

    def per_request(self, requests: int) -> str:
        """``server 1,234 us/req (71 % of a core)  players 321 us/req``."""
        wall = time.perf_counter() - self.started
        client = time.process_time() - self.client
        server = None if self.server_pid is None else cpu_seconds(self.server_pid)
        n = max(requests, 1)
        players = f"players {client / n * 1e6:,.0f} us/req"
        if server is None or self.server is None:
            return players
        used = server - self.server
        return (
            f"server {used / n * 1e6:,.0f} us/req ({used / wall * 100:.0f} % of a core)  {players}"
        )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


SERVER_ENV = {
    "SECRET_KEY": "castle-bench-only",
    "DAILY_SECRET": "castle-bench-only",
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "0",
    "DEBUG": "0",
}
"""Production settings over plain HTTP on 127.0.0.1; every server shares the key, so a
session signed by one is read by the others."""


def serve(
    database: str,
    port: int,
    *,
    workers: int = 2,
    prepare: bool = True,
    log: Path | None = None,
    settings: str = "castle_site.settings",
) -> subprocess.Popen[bytes]:
    """Start gunicorn (its master is the returned process) and warm its workers up.

    ``prepare`` first migrates ``database`` and collects static files; ``log`` receives
    gunicorn's own log (worker boots and deaths); ``settings`` is the settings module.
    """
    env = {
        **os.environ,
        **SERVER_ENV,
        "DATABASE_URL": database,
        "DJANGO_SETTINGS_MODULE": settings,
    }
    python = sys.executable
    if prepare:
        for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    gunicorn = str(Path(python).with_name("gunicorn"))
    command = [gunicorn, "castle_site.wsgi", "--workers", str(workers)]
    # Without a control socket: several masters on one host would share ~/.gunicorn's.
    command += ["--bind", f"127.0.0.1:{port}", "--no-control-socket"]
    if log is None:
        server = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    else:
        with log.open("ab") as output:
            server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.1)
    else:
        stop(server)
        raise SystemExit("gunicorn did not start")
    warm_up(port, workers)
    return server


def warm_up(port: int, workers: int) -> None:
    """Have every worker import the views and compile the templates before measuring.

    A sync worker takes one request at a time, so while a cold worker is busy with its
    first one, the next concurrent request goes to another worker.
    """

    def visit() -> None:
        browser = Browser(port, timeout=60)
        for _ in range(3):
            browser.request("GET", "/")

    threads = [threading.Thread(target=visit) for _ in range(2 * workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop gunicorn gracefully (its workers finish their requests), or kill it."""
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(5)


def http_bench(
    seconds: float, clients: int, *, port: int | None, http: bool = True, browser: bool = True
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = port or free_port()
        # The site, and the floor of a move (tools/bench_urls.py).
        server = serve(f"sqlite:///{folder}/bench.sqlite3", port, settings="tools.bench_settings")
        try:
            if http:
                _http_figures(port, seconds, clients, server_pid=server.pid)
            if browser:
                browser_figures(port)
        finally:
            stop(server)


GAMES_READY = 100
"""Games each benchmark player starts before the clock runs (random play ends a game of
Beleaguered Castle after about 25 moves)."""


def _http_figures(
    port: int, seconds: float, clients: int, rounds: int = 3, *, server_pid: int | None = None
) -> None:
    """Trivial views and moves in alternating rounds, so that a shared machine's slow patch
    weighs on both; each round's ratio, then the median. Each measurement also says what it
    cost in CPU per request (:class:`CpuMeter`, from the server's process ``server_pid``)."""
    browsers = [Browser(port) for _ in range(clients)]
    players = [
        Player(port, "beleaguered-castle", 1000 + i, ready=GAMES_READY) for i in range(clients)
    ]
    sizes: list[int] = []

    def trivial(i: int) -> Callable[[], int]:
        return lambda: browsers[i].request("GET", "/healthz")[0]

    def mover(i: int) -> Callable[[], int]:
        def act() -> int:
            status, size = players[i].move()
            sizes.append(size)
            return status

        return act

    def floor(i: int) -> Callable[[], int]:
        return lambda: players[i].move("floor")[0]

    def unanswered(i: int) -> Callable[[], int]:
        return lambda: players[i].move("unanswered")[0]

    print(
        f"\nHTTP: gunicorn, 2 sync workers, SQLite, {clients} clients,"
        f" {rounds} rounds of {seconds:g} s each"
    )
    row = "  {:<26} {:>8.0f} req/s   p50 {:>6.1f} ms   p99 {:>6.1f} ms   errors {}\n{:>30}{}"
    meter = CpuMeter(server_pid)

    def measure(label: str, action: Callable[[int], Callable[[], int]]) -> float:
        meter.start()
        rate, latencies, errors = drive(action, clients, seconds)
        cost = meter.per_request(len(latencies))
        print(row.format(label, rate, *_ms(latencies), errors, "", cost))
        return rate

    ratios: dict[str, list[float]] = {"move": [], "floor": [], "unanswered": []}
    for number in range(1, rounds + 1):
        print(f"  round {number}")
        base_rate = measure("trivial view", trivial)
        for name, label, action in (
            ("move", "move POST (htmx)", mover),
            ("unanswered", "the move, unanswered", unanswered),
            ("floor", "floor of a move", floor),
        ):
            ratios[name].append(measure(label, action) / base_rate)
        print(
            "  ratios to trivial: "
            + ", ".join(f"{name} {values[-1]:.2f}" for name, values in ratios.items())
        )
    print(f"  median ratio move/trivial: {statistics.median(ratios['move']):.2f} (target >= 0.4)")
    print(
        f"  median ratio unanswered/trivial: {statistics.median(ratios['unanswered']):.2f}"
        " (the move played and stored as the site does, answered with two bytes)"
    )
    print(
        f"  median ratio floor/trivial: {statistics.median(ratios['floor']):.2f} (the floor:"
        " session, CSRF, form, one row read, one check, one write; tools/bench_urls.py)"
    )
    median, largest = statistics.median(sizes), max(sizes)
    print(
        f"  move response, Beleaguered Castle: median {median:.0f} B,"
        f" max {largest} B (target <= 2048 B)"
    )


ARM = """(kind) => {
    window.benchMs = undefined;
    window.benchGlideMs = undefined;
    const ply = document.getElementById("play").dataset.ply;
    const changed = kind === "select"
        ? () => document.getElementById("board").classList.contains("selecting")
        : () => document.getElementById("play").dataset.ply !== ply;
    const gliding = () => kind === "move" && document.querySelector("#board .card.leaving");
    let t0 = null;
    const painted = (name) => requestAnimationFrame(
        () => setTimeout(() => { window[name] = performance.now() - t0; }));
    addEventListener("click", (e) => { t0 = e.timeStamp; }, {capture: true, once: true});
    const observer = new MutationObserver(() => {
        if (t0 === null) return;
        if (window.benchGlideMs === undefined && gliding()) {
            window.benchGlideMs = null;
            painted("benchGlideMs");
        }
        if (!changed()) return;
        observer.disconnect();
        painted("benchMs");
    });
    observer.observe(document.querySelector(".game"), {subtree: true, childList: true,
        attributes: true, attributeFilter: ["class", "data-ply"]});
}"""
"""Times one click to the first frame painted in the new state, from the click event's own
time stamp: a selection marks #board "selecting" (in the page, no request); a move's answer
brings a new #play ply (board.js applies all of an answer in one task). The observer sees the
change after that task; the frame that shows it is painted before the task that
requestAnimationFrame's callback queues runs. An answer to something else (the verdict's
poll) does not count. A move also times the first frame of its glide (board.js sets the
moving cards off, class "leaving", as the click lands, before the answer)."""

VISIBLE_POINT = """(el) => {
    el.scrollIntoView({block: "nearest", inline: "nearest"});
    const r = el.getBoundingClientRect();
    const out = [.5, .4, .6, .3, .7, .2, .8, .1, .9, .04, .96];  /* the middle outwards */
    for (const fy of out) {
        for (const fx of out) {
            const x = r.left + r.width * fx, y = r.top + r.height * fy;
            const near = [[0, 0], [-4, 0], [4, 0], [0, -4], [0, 4]];  /* not on an edge */
            if (near.every(([dx, dy]) => el.contains(document.elementFromPoint(x + dx, y + dy)))) {
                return [x, y];
            }
        }
    }
    throw new Error("no part of " + el.outerHTML + " shows");
}"""
"""A point where a click lands on the element (a fanned card shows only part of itself, on
either side: the left wing fans leftwards), scrolled into view first (the games of 13 piles
run below a 900 px window)."""

ANSWER_MS = """() => {
    const entry = performance.getEntriesByType("resource")
        .filter((e) => e.name.endsWith("/moves")).pop();
    performance.clearResourceTimings();
    return entry ? entry.responseEnd - entry.startTime : 0;
}"""
"""Of a move's click->repaint, the time its request took, from sending to the last byte of
the answer (Resource Timing): what the page waits for the server and the network."""

SETTLED = "!document.querySelector('.arriving, .ghost:not(.falling)')"
"""No card in flight (static/js/motion.js): every card shows where it lies."""

BROWSER_MOVES = 12


def browser_figures(port: int, moves: int = BROWSER_MOVES) -> None:
    """Chromium plays ``moves`` card moves of every game, clicking like a player."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("\nBrowser: skipped (playwright is a test dependency: make test installs it)")
        return
    rng = random.Random(11)
    timings: dict[str, list[float]] = {"select": [], "move": [], "answer": [], "glide": []}
    per_move: list[int] = []
    print(f"\nBrowser: Chromium against the same gunicorn, {moves} card moves per game")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        for slug in GAMES:
            context = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
            url = f"http://127.0.0.1:{port}/play/{slug}/{rng.randrange(1, 10**6)}/"
            answers = _browser_game(context.new_page(), url, rng, moves, timings, per_move)
            first_load = first_load_bytes(port, slug)
            sizes = sorted(size for size, _ in answers) or [0]
            wire = sorted(encoded for _, encoded in answers) or [0]
            print(
                f"  {slug:<20} move response median {statistics.median(sizes):>5.0f} B,"
                f" max {sizes[-1]:>5} B (gzip on the wire: median {statistics.median(wire):.0f} B);"
                f" first load {first_load / 1024:.1f} KB compressed"
            )
            context.close()
        chromium.close()
    print("  targets: move response <= 2048 B; first load with all assets <= 30 KB")
    print(
        f"  requests per card move: {sorted(set(per_move))} over {len(per_move)} moves"
        " (must be [1])"
    )
    for name, what in (
        ("select", "select"),
        ("glide", "move, first frame of its glide"),
        ("move", "move, its answer in the page"),
    ):
        values = timings[name] or [math.nan]
        print(
            f"  click->repaint, {what}: median {statistics.median(values):5.1f} ms,"
            f" p90 {percentile(values, 0.9):5.1f} ms over {len(timings[name])} (target median"
            " <= 25 ms)"
        )
    answer = timings["answer"]
    print(f"    of a move, its request: median {statistics.median(answer):5.1f} ms")


def _browser_game(
    page: Any,
    url: str,
    rng: random.Random,
    moves: int,
    timings: dict[str, list[float]],
    per_move: list[int],
) -> list[tuple[int, int]]:
    """One game of random legal card moves, each a click on the card and a click on its
    destination: the move answers' sizes, uncompressed and on the wire."""
    sent: list[str] = []
    answers: list[tuple[int, int]] = []

    def finished(request: Any) -> None:
        if request.url.endswith("/moves"):
            encoded = request.sizes()["responseBodySize"]
            answers.append((len(request.response().body()), encoded))

    page.on("requestfinished", finished)
    page.goto(url)
    page.wait_for_load_state("load")
    page.on("request", lambda request: sent.append(request.url))
    for _ in range(moves):
        legal = script_moves(page.eval_on_selector("#play", "el => JSON.parse(el.textContent)"))
        pairs = [(source, target) for source, targets in legal.items() for target in targets]
        if not pairs or page.locator("#status .panel").count():
            break  # won, or stuck: the panel says so and covers part of the board
        source, target = rng.choice(pairs)
        sent.clear()
        # The last move's cards have landed (motion.js hides a landing card, class
        # "arriving", under its flying copy): a player clicks a card that shows.
        page.wait_for_function(SETTLED)
        for kind, button in (
            ("select", f'#board button[name="select"][value="{source}"]'),
            ("move", f"#pile-{target} > :last-child"),
        ):
            x, y = page.eval_on_selector(button, VISIBLE_POINT)
            page.evaluate(ARM, kind)
            page.mouse.click(x, y)
            page.wait_for_function("window.benchMs !== undefined")
            timings[kind].append(page.evaluate("window.benchMs"))
            if kind == "move":
                timings["answer"].append(page.evaluate(ANSWER_MS))
                glide = page.evaluate("window.benchGlideMs")
                if glide is not None:
                    timings["glide"].append(glide)
        page.wait_for_function("!document.getElementById('board').classList.contains('busy')")
        # The verdict badge's poll (a typed deal's verdict, on its own timer) is no part of it.
        per_move.append(sum("/verdict" not in url for url in sent))
    return answers


def first_load_bytes(port: int, slug: str) -> int:
    """A new game's page and every script and stylesheet it loads, gzip-compressed as
    served (the page by GZipMiddleware, the assets by WhiteNoise)."""
    browser = Browser(port)
    gzip = {"Accept-Encoding": "gzip"}
    _, headers, _ = browser.request("GET", f"/play/{slug}/")
    _, _, page = browser.request("GET", headers["Location"], headers=gzip)
    total = len(page)
    html = zlib.decompress(page, 16 + zlib.MAX_WBITS) if page[:2] == b"\x1f\x8b" else page
    for asset in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html):
        total += len(browser.request("GET", asset.decode(), headers=gzip)[2])
    return total


def _ms(latencies: list[float]) -> tuple[float, float]:
    return percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000


PARTS = ("engine", "http", "browser")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench")
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument(
        "--only",
        action="append",
        choices=PARTS,
        help="run only this part (repeat for several; default: all of them)",
    )
    parser.add_argument("--engine-only", action="store_true", help="same as --only engine")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium part")
    parser.add_argument("--port", type=int, help="gunicorn's port (default: a free one)")
    args = parser.parse_args(argv)
    parts = set(args.only or PARTS)
    if args.engine_only:
        parts &= {"engine"}
    if args.no_browser:
        parts.discard("browser")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "castle_site.settings")
    if "engine" in parts:
        print("Engine: random playouts, legal moves + checked play + undo (one process)")
        for slug in GAMES:
            rate = engine_throughput(slug, args.seconds / 2)
            print(f"  {slug:<20} {rate:>9,.0f} moves/s")
        print("  target: >= 150,000 moves/s on beleaguered-castle")
    if parts & {"http", "browser"}:
        http_bench(
            args.seconds,
            args.clients,
            port=args.port,
            http="http" in parts,
            browser="browser" in parts,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

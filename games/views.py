"""Thin views: parse the request, call a service, render a page or its partials.

htmx requests get the changed partials of the same page template (``games/game.html#board``
plus out-of-band counter and status); plain forms get POST/redirect/GET, and a refused move
renders the full page with its 4xx status and the reason.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any, Final
from urllib.parse import urlencode, urlsplit

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails

from games import limits, pages, pools, services, solver_jobs, status_line
from games.daily import BUDGETS, live_daily_of_deal, live_deal_refusal, secrecy_refusal
from games.forms import (
    ActionForm,
    AutoplayForm,
    DealsForm,
    ImportForm,
    MoveForm,
    PlayForm,
    ReplayForm,
    RestartForm,
)
from games.models import DealChoice, Game
from games.players import current_player, known_player, session_player_id
from games.presentation import (
    ListedMove,
    analysis_message,
    board_view,
    hint_message,
    layout_preview,
    move_list,
    parse_hint,
    parse_selection,
    pile_words,
    replay_said,
    sentence,
    stuck_panel_key,
)
from games.rules import (
    GAMES,
    GROUPS,
    GameRules,
    IllegalMove,
    Move,
    ReplayError,
    RulesError,
    get_game,
    replay_record,
)

FRAGMENT_HEADERS: Final = ("HX-Request", "HX-History-Restore-Request")
"""What decides between a fragment and the whole page (``_fragment``): a view answering
either varies on both."""


GAME_PAGE = "games/game.html"
STATUS_NOTE = "status"
"""A message for the game page's status line (games/game.html#status), not its notes: what
an action did, said after the redirect that follows a plain form's post."""


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (``request.htmx``)."""

    htmx: HtmxDetails


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    groups = [
        (key, *GROUPS[key], [(r, layout_preview(r.slug)) for r in GAMES.values() if r.group == key])
        for key in GROUPS
    ]
    player = known_player(request)
    resume = player.games.filter(status=Game.Status.PLAYING).first() if player else None
    deals = DealsForm(initial={"deals": player.new_deals if player else DealChoice.WINNABLE})
    context = {
        "groups": [group for group in groups if group[-1]],
        "first": next(iter(GAMES)),
        "resume": resume,
        "deals_form": deals,
    }
    return render(request, "games/home.html", context)


@require_safe
def health(request: HtmxHttpRequest) -> HttpResponse:
    """For load balancers and the benchmark's baseline: no database, no template."""
    return HttpResponse("ok", content_type="text/plain")


ROBOTS = "User-agent: *\nDisallow: /play/\nDisallow: /daily/*/play\nDisallow: /games/\n"


@require_safe
def robots(request: HtmxHttpRequest) -> HttpResponse:
    """Starting a game is a GET (shareable deal links): keep crawlers from starting games."""
    return HttpResponse(ROBOTS, content_type="text/plain")


@require_safe
def favicon(request: HtmxHttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the SVG icon."""
    return redirect(static("favicon.svg"), permanent=True)


@require_safe
def rules_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    rules = rules_or_404(slug)
    context = {
        "rules": rules,
        "difficulty": pools.difficulty_rule(rules),
        "daily_budget": BUDGETS[rules.slug].nodes,
    }
    return render(request, f"games/rules/{rules.slug}.html", context)


@require_GET  # a HEAD request (a link checker's, a script's) starts no game
@limits.rate_limited("play", *limits.PLAY)
def play(request: HtmxHttpRequest, slug: str, deal: int | None = None) -> HttpResponse:
    """Start a game (a proved winnable deal by default, or the one in the URL) and go to its
    page."""
    rules = rules_or_404(slug)
    form = PlayForm(request.GET)
    if not form.is_valid() or (deal is not None and not PlayForm.deal_in_range(deal)):
        return _bad_request(
            request, form.error_text() or f"Deal numbers run from 1 to {form.max_deal}."
        )
    live = deal and live_daily_of_deal(deal=deal, now=timezone.now())
    if live:  # no practice on a live daily's deal: the player's daily game instead
        return redirect("games:daily_play", date=live.date, slug=live.slug)
    try:
        game, note = pools.game_new(
            player=current_player(request),
            slug=rules.slug,
            deal=deal,
            choice=form.cleaned_data["deals"] or None,
            remember=form.cleaned_data["remember"] and not from_another_site(request),
            autoplay=form.cleaned_data["autoplay"],
            options=form.cleaned_data["options"],
            now=timezone.now(),
            may_queue=lambda: limits.over_limit(request, "verdict", limits.NEW_VERDICT) is None,
        )
    except RulesError as error:
        return _bad_request(request, str(error))
    if note:
        messages.info(request, note)
    return redirect(game)


@require_safe
@vary_on_headers(*FRAGMENT_HEADERS)  # a fragment for htmx, the page otherwise
# Never a stored copy, the browser's own included: Back served one from its cache, moves
# behind the game, whose first move then met "moved on in another tab" (a player's pass).
@cache_control(private=True, no_store=True)
def game_page(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if secret := _secret(request, game):
        return secret
    board = services.game_board(game)
    owner = _owns(request, game)
    selected = parse_selection(board, request.GET.get("select")) if owner else None
    # Without JavaScript, Hint comes back here: its move marked, its card selected.
    hinted = parse_hint(board, request.GET.get("hint")) if owner else None
    if hinted is not None:
        selected = board.selection(hinted)
    page = pages.game_page(
        game, board, selected=selected, hint=hinted, whole=True, **_viewer(request)
    )
    return render(request, GAME_PAGE + ("#board" if _fragment(request) else ""), page)


@limits.playing_limited
@require_POST
def move(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, game_id, form.error_text(), status=400)
    return _act(
        request,
        game_id,
        lambda **kw: services.game_play_move(move=form.asked(), **kw),
        expected_ply=form.cleaned_data["ply"],
        selected=form.selection(),
        kind="move",
    )


def _action(
    service: Callable[..., services.Outcome], form_class: type[ActionForm] = ActionForm
) -> limits.View:
    """The view of an action on a game that only its ply (and ``form_class``'s
    ``service_arguments``) qualifies: undo, redo, restart, the auto-play switch."""

    @limits.playing_limited
    @require_POST
    def view(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
        form = form_class(request.POST)
        if not form.is_valid():
            return _refused(request, game_id, form.error_text(), status=400)
        return _act(
            request,
            game_id,
            functools.partial(service, **form.service_arguments()),
            expected_ply=form.cleaned_data["ply"],
            kind=kind,
        )

    kind = view.__name__ = service.__name__.removeprefix("game_")
    return view


undo = _action(services.game_undo)
redo = _action(services.game_redo)
restart = _action(services.game_restart, RestartForm)
"""Back to the opening, or (the replay's "Go back to this move") to a move of the line."""
autoplay = _action(services.game_autoplay, AutoplayForm)


@require_safe
@vary_on_headers(*FRAGMENT_HEADERS)  # a fragment for htmx, the page otherwise
def replay(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Step through a game's current line, read-only, for anyone with the link."""
    game = get_object_or_404(Game, pk=game_id)
    if secret := _secret(request, game):
        return secret
    line = services.game_line(game)
    form = ReplayForm(request.GET, total=len(line))
    if not form.is_valid():
        return _bad_request(request, form.error_text())
    ply = form.cleaned_data["ply"]
    board = services.line_board(game, line[:ply])
    listed = _window(game, line, ply)
    context = {
        "game": game,
        "rules": game.rules,
        "view": board_view(board, interactive=False),
        "moved": Move.from_notation(line[ply - 1]).target if ply else "",
        "ply": ply,
        "previous": max(ply - 1, 0),
        "next": min(ply + 1, len(line)),
        "total": len(line),
        "line": listed,
        "said": replay_said(listed, ply, len(line)),
        "owner": _owns(request, game),
        "fragment": _fragment(request),
        "look": pages.viewers_look(session_player_id(request)),
    }
    template = "games/replay.html" + ("#replay" if context["fragment"] else "")
    return render(request, template, context)


REPLAY_WINDOW = 60
"""Moves the replay lists around the position shown (a long game's list stays small)."""


def _window(game: Game, line: list[str], ply: int) -> list[ListedMove]:
    """The listed moves around ``ply``: number, notation and words (``7♠ → ♠ foundation``)."""
    start = max(0, min(ply - REPLAY_WINDOW // 2, len(line) - REPLAY_WINDOW))
    end = min(start + REPLAY_WINDOW, len(line))
    return move_list(services.line_board(game, line[:start]), line[start:end], first=start + 1)


FINISHED_RECORD: Final = (
    "This record is a won game: nothing is left to play, so here is its replay."
)
"""Why Continue, asked of a won game's record, opens its replay."""


@limits.rate_limited("import", *limits.IMPORT)
@require_http_methods(["GET", "HEAD", "POST"])
def import_record(request: HtmxHttpRequest) -> HttpResponse:
    """Paste a game record: replay it, or continue it as a new game of your own."""
    form = ImportForm(request.POST if request.method == "POST" else None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            board = replay_record(form.cleaned_data["record"])
        except ReplayError as bad:
            reason = pile_words(bad.rules, bad.reason) if bad.rules else bad.reason
            error = f"Line {bad.line}: move {bad.index} ({bad.move}) cannot be played. {reason}"
            error = sentence(error)
        except RulesError as bad:
            error = sentence(str(bad))
        else:
            if live := live_daily_of_deal(deal=board.deal_number, now=timezone.now()):
                context = {"form": form, "error": live_deal_refusal(live)}
                return render(request, "games/import.html", context, status=403)
            try:
                game = services.game_import(
                    player=current_player(request), board=board, now=timezone.now()
                )
            except RulesError as bad:
                error = str(bad)
            else:
                if form.cleaned_data["then"] == "continue":
                    if not game.is_finished:
                        return redirect(game)
                    messages.info(request, FINISHED_RECORD)
                return redirect("games:replay", game_id=game.pk)
    status = 400 if error or form.errors else 200
    return render(request, "games/import.html", {"form": form, "error": error}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Delete a game: a confirmation page, then a POST; only by its owner, and never a daily
    game (the player's one try at that day's deal: the answer is the game, with the reason)."""
    game = get_object_or_404(Game, pk=game_id)
    if not _owns(request, game):
        return render(
            request,
            "games/error.html",
            {"message": "Only the player who started this game can delete it."},
            status=403,
        )
    if request.method == "POST":
        try:
            services.game_delete(game_id=game.pk, player_id=session_player_id(request))
        except services.NotOwner as error:
            return render(request, "games/error.html", {"message": str(error)}, status=403)
        except services.DailyGameKept as error:
            return _refused(request, game.pk, str(error), status=403)
        return redirect("games:my_games")
    if game.daily_id is not None:  # no confirmation page for what cannot be done
        return _refused(request, game.pk, str(services.DailyGameKept()), status=403)
    return render(request, "games/confirm_delete.html", {"game": game, "rules": game.rules})


@limits.rate_limited("hint", *limits.HINT)
@require_POST
def hint(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Highlight the next move of a winning line, or say why there is none."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _refused(request, game_id, form.error_text(), status=400)
    solve_wait = limits.over_limit(request, "solve", limits.SOLVE, count=False)
    try:
        game, board, answer, solved = services.game_hint(
            game_id=game_id,
            player_id=session_player_id(request),
            now=timezone.now(),
            may_solve=solve_wait is None,
            expected_ply=form.cleaned_data["ply"],
        )
    except Game.DoesNotExist as error:
        raise Http404("No such game") from error
    except solver_jobs.SolverBusy as error:
        return limits.too_many(request, solve_wait or error.retry_after, str(error))
    except services.NotOwner as error:
        return _refused(request, game_id, str(error), status=403)
    except services.GameConflict as error:  # a tab behind the game: it gets the game as it is
        return _conflict(request, error)
    except RulesError as error:
        return _refused(request, game_id, error, status=422)
    if solved:  # a position nobody had asked about: it spends the client's solver budget
        limits.over_limit(request, "solve", limits.SOLVE)
    if not request.htmx:  # to the game page: a reload there does not ask (and count) again
        message, bad_news = hint_message(board, answer)
        note = messages.warning if bad_news else messages.info
        note(request, message, extra_tags=STATUS_NOTE)
        query = f"?{urlencode({'hint': answer.move.notation()})}" if answer.move else ""
        return _see_other(game.get_absolute_url() + query)
    page = pages.after_hint(game, board, answer, **_viewer(request))
    return _partials(request, page)


@limits.rate_limited("analyse", *limits.ANALYSE)
@require_POST
def analyse(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Where the game was lost: the move after which it could no longer be won (owner only).

    The search runs in the task worker; until it is done the answer is "analysing…", which
    looks again by itself (``ANALYSIS_LOOKS``). A POST: it queues the worker's search and,
    on a daily game, counts a hint, which a GET (a link on another site, a prefetch) must
    not; without htmx its answer is the analysis's page (``analysis``), after a redirect."""
    game = get_object_or_404(Game, pk=game_id)
    if not _owns(request, game):
        return _refused(request, game_id, "Only the player of this game can analyse it", status=403)
    try:
        line, state = services.game_analyse(
            game=game,
            now=timezone.now(),
            wait_for_new=lambda: limits.over_limit(request, "new-analysis", limits.NEW_ANALYSIS),
        )
    except solver_jobs.SolverBusy as error:
        return limits.too_many(request, error.retry_after, str(error))
    except services.DailyLive as error:
        return _refused(request, game_id, str(error), status=403)
    if not request.htmx:
        return _see_other(reverse("games:analysis", args=[game.pk]))
    return _analysis(request, game, line, state, look=0)


ANALYSIS_LOOKS: Final = (1, 1, 2, 3, 5, 8, 13, 21, 30)
"""Seconds between an unfinished analysis's looks at itself, one a look, growing (a worker
that is away is not asked every second for ever); then "Check again" is the player's. The
page's script (static/js/verdict.js) counts them; a page without JavaScript refreshes
itself with the next look's number (``?look=N``)."""


@require_safe
@vary_on_headers(*FRAGMENT_HEADERS)  # a fragment for htmx, the page otherwise
def analysis(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The analysis as it stands (what "analysing…" looks at); queues nothing."""
    game = get_object_or_404(Game, pk=game_id)
    if not _owns(request, game):
        return _refused(request, game_id, "Only the player of this game can analyse it", status=403)
    look = request.GET.get("look", "0")
    if not (look.isascii() and look.isdecimal() and len(look) <= 2):
        return _bad_request(request, "A look is counted from 0.")
    try:
        line, state = services.game_analysis(game=game, now=timezone.now())
    except services.DailyLive as error:
        return _refused(request, game_id, str(error), status=403)
    return _analysis(request, game, line, state, look=int(look))


def _analysis(
    request: HtmxHttpRequest,
    game: Game,
    line: list[str],
    state: solver_jobs.AnalysisState,
    *,
    look: int,
) -> HttpResponse:
    if not state.done:
        template = "games/analysis.html" + ("#analysing" if _fragment(request) else "")
        context = {
            "game": game,
            "done": False,
            "looks": " ".join(map(str, ANALYSIS_LOOKS)),
            "refresh": ANALYSIS_LOOKS[look] if look < len(ANALYSIS_LOOKS) else None,
            "next_look": look + 1,
        }
        return render(request, template, context)
    ply = state.ply
    before = services.line_board(game, line[: ply - 1]) if ply else None
    board = services.game_board(game)
    message = analysis_message(line, ply, before=before, end=board)
    if _fragment(
        request
    ):  # the status as the game page shows it (its stuck panel), with the answer
        page = pages.after_analysis(game, board, message=message, ply=ply, **_viewer(request))
        return render(request, "games/game.html#analysis-answer", page)
    context = {"message": message, "game": game, "ply": ply, "error": False, "done": True}
    return render(request, "games/analysis.html", context)


LIVE_RECORD: Final = (
    "A daily challenge game's record names its deal, which stays secret until the day ends "
    "(midnight UTC): its record is here then."
)


@require_safe
def record(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if secret := _secret(request, game):
        return secret
    if not game.shows_deal:  # the player's own live daily: a record starts with its deal
        return _kept_secret(request, LIVE_RECORD)
    text = services.game_record(game).to_text()
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


# -- helpers ------------------------------------------------------------------------------


def _fragment(request: HtmxHttpRequest) -> bool:
    """Whether to answer with a fragment: htmx asked, and not to restore a page from its
    history (Back past the pages htmx keeps, ten, sends such a request, wanting the whole
    page: the replay showed its bare fragment, the site's header and layout gone)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def _secret(request: HtmxHttpRequest, game: Game) -> HttpResponse | None:
    """A refusal when ``game`` is someone else's daily game whose day is still live."""
    if message := secrecy_refusal(game, session_player_id(request), now=timezone.now()):
        return _kept_secret(request, message)
    return None


def _kept_secret(request: HtmxHttpRequest, message: str) -> HttpResponse:
    """A live daily's game or record refused: no fault, so not "That did not work"."""
    context = {"message": message, "heading": "Secret until the day ends"}
    return render(request, "games/error.html", context, status=403)


def _viewer(request: HtmxHttpRequest) -> dict[str, Any]:
    """Who looks at a game page, and when: the keywords of the ``pages`` builders."""
    return {"viewer": session_player_id(request), "now": timezone.now()}


def _act(
    request: HtmxHttpRequest,
    game_id: uuid.UUID,
    service: Callable[..., services.Outcome],
    *,
    expected_ply: int | None,
    selected: str | None = None,
    kind: str,
) -> HttpResponse:
    try:
        outcome = service(
            game_id=game_id,
            player_id=session_player_id(request),
            expected_ply=expected_ply,
            now=timezone.now(),
        )
    except Game.DoesNotExist as error:
        raise Http404("No such game") from error
    except services.NotOwner as error:
        return _refused(request, game_id, str(error), status=403)
    except services.GameConflict as error:
        return _conflict(request, error)
    except RulesError as error:
        return _refused(request, game_id, error, status=422, selected=selected)
    limits.PLAYING.charge(request, outcome.rows)
    if not request.htmx:  # the sentence the board script's live region reads, after the 303
        # Notes nobody read (a script that never follows the redirect) are dropped, not
        # kept: they piled up in the session, each request slower (195 ms at 10,000).
        list(messages.get_messages(request))
        if message := pages.action_message(outcome, kind=kind):
            messages.info(request, message, extra_tags=STATUS_NOTE)
        return _see_other(outcome.game)
    page = pages.after_action(outcome, kind=kind, **_viewer(request))
    return _partials(request, page)


def _partials(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """What changed, for the board script: the controls only when the script's copy (its
    ``Castle-Controls`` header) differs from theirs, and the stuck panel only when the
    page's (its ``Castle-Panel`` header) says something else."""
    context["controls_changed"] = request.headers.get("Castle-Controls") != context["controls"]
    panel = stuck_panel_key(context)
    context["panel_kept"] = bool(panel) and request.headers.get("Castle-Panel") == panel
    return render(request, "games/game.html#move-response", context, status=status)


def _see_other(to: Game | str) -> HttpResponse:
    """After a POST: go to ``to`` (a game's page, or a URL) with a GET."""
    response = HttpResponseRedirect(to if isinstance(to, str) else to.get_absolute_url())
    response.status_code = 303
    return response


def _conflict(request: HtmxHttpRequest, error: services.GameConflict) -> HttpResponse:
    game = error.game
    try:
        game.refresh_from_db()
    except Game.DoesNotExist as gone:  # deleted while this action was on its way
        raise Http404("This game was deleted") from gone
    board = services.game_board(game)
    if not request.htmx:
        page = pages.game_page(game, board, message=str(error), whole=True, **_viewer(request))
        return render(request, GAME_PAGE, page, status=409)
    page = pages.after_conflict(game, board, message=str(error), **_viewer(request))
    return _partials(request, page, status=409)


def _refused(
    request: HtmxHttpRequest,
    game_id: uuid.UUID,
    refusal: str | RulesError,
    *,
    status: int,
    selected: str | None = None,
) -> HttpResponse:
    """The board stays as it was; the player reads why: a rule's refusal of a move
    (``IllegalMove``) with its piles named as the board shows them. Other reasons are said
    as written: a malformed move's help names the notation's piles, which renaming garbled
    ("write FROM-TO with piles left pile 1, the diamonds foundation…"; an attacker's pass)."""
    game = get_object_or_404(Game, pk=game_id)
    reason = str(refusal)
    if isinstance(refusal, IllegalMove):
        reason = pile_words(game.rules, reason)
    if not request.htmx and secrecy_refusal(game, session_player_id(request), now=timezone.now()):
        # someone else's live daily game: the reason, never its position
        return render(request, "games/error.html", {"message": reason}, status=status)
    if request.htmx:
        return status_line.refusal(request, reason, status)
    board = services.game_board(game)
    keep = parse_selection(board, selected if _owns(request, game) else None)
    page = pages.game_page(
        game, board, selected=keep, message=reason, whole=True, **_viewer(request)
    )
    return render(request, GAME_PAGE, page, status=status)


def from_another_site(request: HttpRequest) -> bool:
    """Whether another site may have sent this request: a link elsewhere may start a game,
    never change the player's preferences nor start their daily game (its clock).

    The browser says so in ``Sec-Fetch-Site`` (a typed address is ``none``). A browser that
    sends no such header (Safari before 16.4, and older ones) is believed only with a
    ``Referer`` of this site, which the site's own links send (Django's ``same-origin``
    referrer policy): a missing header was taken for this site, so a link elsewhere
    started such a visitor's daily clock (an attacker's pass), and a site linking there
    can withhold its ``Referer``."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site not in {"same-origin", "none"}
    referer = urlsplit(request.headers.get("Referer", ""))
    return (referer.scheme, referer.netloc) != (request.scheme, request.get_host())


def _owns(request: HtmxHttpRequest, game: Game) -> bool:
    return session_player_id(request) == game.owner_id


def rules_or_404(slug: str) -> GameRules:
    """The game a URL names (aliases too), or 404."""
    try:
        return get_game(slug)
    except RulesError as error:
        raise Http404(str(error)) from error


def _bad_request(request: HtmxHttpRequest, reason: str) -> HttpResponse:
    return render(request, "games/error.html", {"message": reason}, status=400)

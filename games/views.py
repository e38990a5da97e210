"""Thin views: parse the request, call a service, render a page or its partials.

htmx requests get the changed partials of the same page template (``games/game.html#board``
plus out-of-band counter and status); plain forms get POST/redirect/GET, and a refused move
renders the full page with its 4xx status and the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget

from games import limits, pool_views, pools, services, solver_jobs
from games.daily import game_visible_to, is_late, live_daily_of_deal
from games.forms import ActionForm, DealsForm, ImportForm, MoveForm, PlayForm, ReplayForm
from games.models import DealChoice, Game
from games.players import current_player, known_player, session_player_id
from games.presentation import (
    analysis_message,
    board_view,
    daily_ending,
    describe_outcome,
    hint_message,
    layout_preview,
    move_list,
    parse_selection,
    touched_names,
    touched_piles,
)
from games.rules import (
    GAMES,
    GameRecord,
    GameRules,
    Move,
    ReplayError,
    RulesError,
    get_game,
)

GAME_PAGE = "games/game.html"


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    previews = [(rules, layout_preview(slug)) for slug, rules in GAMES.items()]
    player = known_player(request)
    resume = player.games.filter(status=Game.Status.PLAYING).first() if player else None
    deals = DealsForm(initial={"deals": player.new_deals if player else DealChoice.WINNABLE})
    context = {"previews": previews, "resume": resume, "deals_form": deals}
    return render(request, "games/home.html", context)


@require_safe
def health(request: HttpRequest) -> HttpResponse:
    """For load balancers and the benchmark's baseline: no database, no template."""
    return HttpResponse("ok", content_type="text/plain")


ROBOTS = "User-agent: *\nDisallow: /play/\nDisallow: /daily/*/play\nDisallow: /games/\n"


@require_safe
def robots(request: HttpRequest) -> HttpResponse:
    """Starting a game is a GET (shareable deal links): keep crawlers from starting games."""
    return HttpResponse(ROBOTS, content_type="text/plain")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the SVG icon."""
    return redirect(static("favicon.svg"), permanent=True)


@require_safe
def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    rules = rules_or_404(slug)
    context = {"rules": rules, "difficulty": pools.difficulty_rule(rules)}
    return render(request, f"games/rules/{rules.slug}.html", context)


@limits.rate_limited("play", *limits.PLAY)
@require_safe
def play(request: HttpRequest, slug: str, deal: int | None = None) -> HttpResponse:
    """Start a game (a proved winnable deal by default, or the one in the URL) and go to its
    page."""
    rules = rules_or_404(slug)
    form = PlayForm(request.GET)
    if not form.is_valid() or (deal is not None and not PlayForm.deal_in_range(deal)):
        return _bad_request(
            request, form.error_text() or f"Deal numbers run from 1 to {form.max_deal}."
        )
    live = deal and live_daily_of_deal(game=rules.slug, deal=deal, now=timezone.now())
    if live:  # no practice on a live daily's deal: the player's daily game instead
        return redirect("games:daily_play", date=live.date, slug=live.game)
    try:
        game, note = pools.game_new(
            player=current_player(request),
            game=rules.slug,
            deal=deal,
            choice=form.cleaned_data["deals"] or None,
            remember=form.cleaned_data["remember"],
            autoplay=form.cleaned_data["autoplay"],
            options=form.cleaned_data["options"],
            now=timezone.now(),
        )
    except RulesError as error:
        return _bad_request(request, str(error))
    if note:
        messages.info(request, note)
    return redirect(game)


@require_safe
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if secret := _secret(request, game):
        return secret
    board = services.game_board(game)
    selected = parse_selection(board, request.GET.get("select")) if _owns(request, game) else None
    context = _context(request, game, board, selected)
    context.update(pool_views.badge(game))
    template = GAME_PAGE + ("#board" if request.htmx else "")
    return render(request, template, context)


@require_POST
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, game_id, form.error_text(), status=400)
    return _act(
        request,
        game_id,
        lambda **kw: services.game_play_move(notation=form.cleaned_data["move"], **kw),
        expected_ply=form.cleaned_data["ply"],
        selected=form.selection(),
        kind="move",
    )


def _action(service: Callable[..., services.Outcome]) -> Callable[..., HttpResponse]:
    @require_POST
    def view(request: HttpRequest, game_id: str) -> HttpResponse:
        form = ActionForm(request.POST)
        if not form.is_valid():
            return _refused(request, game_id, form.error_text(), status=400)
        return _act(request, game_id, service, expected_ply=form.cleaned_data["ply"], kind=kind)

    kind = view.__name__ = service.__name__.removeprefix("game_")
    return view


undo = _action(services.game_undo)
redo = _action(services.game_redo)
restart = _action(services.game_restart)


@require_POST
def autoplay(request: HttpRequest, game_id: str) -> HttpResponse:
    on = request.POST.get("autoplay") == "1"
    return _act(
        request,
        game_id,
        lambda expected_ply, **kw: services.game_set_autoplay(on=on, **kw),
        expected_ply=None,
        kind="autoplay",
    )


@require_safe
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
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
    context = {
        "game": game,
        "rules": game.rules,
        "view": board_view(board, interactive=False),
        "moved": Move.from_notation(line[ply - 1]).target if ply else "",
        "ply": ply,
        "previous": max(ply - 1, 0),
        "next": min(ply + 1, len(line)),
        "total": len(line),
        "line": _window(game, line, ply),
        "owner": _owns(request, game),
    }
    return render(request, "games/replay.html" + ("#replay" if request.htmx else ""), context)


REPLAY_WINDOW = 60
"""Moves the replay lists around the position shown (a long game's list stays small)."""


def _window(game: Game, line: list[str], ply: int) -> list[tuple[int, str, str]]:
    """The listed moves around ``ply``: number, notation and words (``7♠ → ♠ foundation``)."""
    start = max(0, min(ply - REPLAY_WINDOW // 2, len(line) - REPLAY_WINDOW))
    end = min(start + REPLAY_WINDOW, len(line))
    return move_list(services.line_board(game, line[:start]), line[start:end], first=start + 1)


@limits.rate_limited("import", *limits.IMPORT)
@require_http_methods(["GET", "HEAD", "POST"])
def import_record(request: HttpRequest) -> HttpResponse:
    """Paste a game record: replay it, or continue it as a new game of your own."""
    form = ImportForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            record = GameRecord.from_text(form.cleaned_data["record"])
        except ReplayError as bad:
            error = f"Line {bad.line}: move {bad.index} ({bad.move}) cannot be played: {bad.reason}"
        except RulesError as bad:
            error = str(bad)[0].upper() + str(bad)[1:]
        else:
            if live := live_daily_of_deal(game=record.game, deal=record.deal, now=timezone.now()):
                return render(
                    request,
                    "games/import.html",
                    {"form": form, "error": _live_daily_refusal(live)},
                    status=403,
                )
            try:
                game = services.game_import(
                    player=current_player(request), record=record, now=timezone.now()
                )
            except RulesError as bad:
                error = str(bad)
            else:
                if form.cleaned_data["then"] == "continue" and not game.is_finished:
                    return redirect(game)
                return redirect("games:replay", game_id=game.pk)
    status = 400 if error or form.errors else 200
    return render(request, "games/import.html", {"form": form, "error": error}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HttpRequest, game_id: str) -> HttpResponse:
    """Delete a game: a confirmation page, then a POST; only by its owner."""
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
        return redirect("games:my_games")
    return render(request, "games/confirm_delete.html", {"game": game, "rules": game.rules})


@limits.rate_limited("hint", *limits.HINT)
@require_POST
def hint(request: HttpRequest, game_id: str) -> HttpResponse:
    """Highlight the next move of a winning line, or say why there is none."""
    solve_wait = limits.over_limit(request, "solve", limits.SOLVE, count=False)
    try:
        game, board, answer, solved = services.game_hint(
            game_id=game_id, player_id=session_player_id(request), may_solve=solve_wait is None
        )
    except Game.DoesNotExist as error:
        raise Http404("No such game") from error
    except solver_jobs.SolverBusy as error:
        return limits.too_many(request, solve_wait or error.retry_after, str(error))
    except services.NotOwner as error:
        return _refused(request, game_id, str(error), status=403)
    except RulesError as error:
        return _refused(request, game_id, str(error), status=422)
    if solved:  # a position nobody had asked about: it spends the client's solver budget
        limits.over_limit(request, "solve", limits.SOLVE)
    message, bad_news = hint_message(board, answer)
    move = answer.move
    # Without JavaScript the hinted card comes selected: one click on its destination plays it.
    selected = None if request.htmx or move is None else move.notation().rsplit("-", 1)[0]
    context = _context(request, game, board, selected, message=message, hint=move, error=bad_news)
    if not request.htmx:
        return render(request, GAME_PAGE, context)
    context["changed"] = touched_piles(
        context["view"], board, [move.notation()] if move else [], back=True
    )
    return _partials(request, context)


@limits.rate_limited("analyse", *limits.ANALYSE)
@require_safe
def analyse(request: HttpRequest, game_id: str) -> HttpResponse:
    """Where the game was lost: the move after which it could no longer be won (owner only).

    The search runs in the task worker; until it is done the answer is "analysing…", which
    htmx polls and a plain page refreshes."""
    game = get_object_or_404(Game, pk=game_id)
    if not _owns(request, game):
        return _refused(request, game_id, "Only the player of this game can analyse it", status=403)
    try:
        line, state = services.game_analyse(game=game, now=timezone.now())
    except solver_jobs.SolverBusy as error:
        return limits.too_many(request, error.retry_after, str(error))
    return _analysis(request, game, line, state)


@require_safe
def analysis(request: HttpRequest, game_id: str) -> HttpResponse:
    """The analysis as it stands (what "analysing…" polls); queues nothing."""
    game = get_object_or_404(Game, pk=game_id)
    if not _owns(request, game):
        return _refused(request, game_id, "Only the player of this game can analyse it", status=403)
    line = services.game_line(game)
    return _analysis(request, game, line, solver_jobs.analysis_state(game=game, line=line))


def _analysis(
    request: HttpRequest, game: Game, line: list[str], state: solver_jobs.AnalysisState
) -> HttpResponse:
    if not state.done:
        template = "games/analysis.html" + ("#analysing" if request.htmx else "")
        return render(request, template, {"game": game, "done": False})
    message = analysis_message(line, state.ply)
    context = {"message": message, "game": game, "ply": state.ply, "error": False, "done": True}
    template = "games/game.html#status" if request.htmx else "games/analysis.html"
    return render(request, template, context)


@require_safe
def record(request: HttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if secret := _secret(request, game):
        return secret
    text = services.game_record(game).to_text()
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


# -- helpers ------------------------------------------------------------------------------


def _secret(request: HttpRequest, game: Game) -> HttpResponse | None:
    """A refusal when ``game`` is someone else's daily game whose day is still live."""
    if game_visible_to(game, session_player_id(request), now=timezone.now()):
        return None
    message = (
        "This is another player's daily challenge game: its moves stay secret until the day "
        "ends (midnight UTC). Then it is a public replay."
    )
    return render(request, "games/error.html", {"message": message}, status=403)


def _live_daily_refusal(daily: Any) -> str:
    return (
        f"This is the deal of today's {daily.rules.name} daily challenge: it can only be played "
        "as your daily game until the day ends (midnight UTC)."
    )


def _act(
    request: HttpRequest,
    game_id: str,
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
        return _refused(request, game_id, str(error), status=422, selected=selected)
    if not request.htmx:
        return _see_other(outcome.game)
    message = describe_outcome(
        outcome.board,
        outcome.played,
        automatic=outcome.automatic,
        back=outcome.back,
        restart=kind == "restart",
    )
    if kind == "autoplay":
        message = f"Auto-play is {'on' if outcome.game.autoplay else 'off'}. {message}".strip()
    only = None if kind == "restart" else touched_names(outcome.board, outcome.played)
    context = _context(
        request, outcome.game, outcome.board, None, message=message, error=False, only=only
    )
    view = context["view"]
    if only is None:
        context["changed"] = list(view.piles.values())
    else:
        context["changed"] = touched_piles(view, outcome.board, outcome.played, back=outcome.back)
    context |= {"played": outcome.played, "back": outcome.back}
    return _partials(request, context)


def _partials(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """What changed, for the board script: the controls only when the script's copy (its
    ``Castle-Controls`` header) differs from theirs."""
    context["controls_changed"] = request.headers.get("Castle-Controls") != context["controls"]
    return render(request, "games/move_response.html", context, status=status)


def _see_other(game: Game) -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = game.get_absolute_url()
    return response


def _conflict(request: HttpRequest, error: services.GameConflict) -> HttpResponse:
    game = error.game
    try:
        game.refresh_from_db()
    except Game.DoesNotExist as gone:  # deleted while this action was on its way
        raise Http404("This game was deleted") from gone
    board = services.game_board(game)
    context = _context(request, game, board, None, message=str(error))
    if not request.htmx:
        return render(request, GAME_PAGE, context, status=409)
    context["changed"] = list(context["view"].piles.values())
    return _partials(request, context, status=409)


def _refused(
    request: HttpRequest, game_id: str, reason: str, *, status: int, selected: str | None = None
) -> HttpResponse:
    """The board stays as it was; the player reads why."""
    game = get_object_or_404(Game, pk=game_id)
    if not request.htmx and not game_visible_to(
        game, session_player_id(request), now=timezone.now()
    ):  # someone else's live daily game: the reason, never its position
        return render(request, "games/error.html", {"message": reason}, status=status)
    if request.htmx:
        response = render(
            request, GAME_PAGE + "#status", {"message": reason, "error": True}, status=status
        )
        return reswap(retarget(response, "#status"), "outerHTML")
    board = services.game_board(game)
    keep = selected if _owns(request, game) else None
    context = _context(request, game, board, parse_selection(board, keep), message=reason)
    return render(request, GAME_PAGE, context, status=status)


def _context(
    request: HttpRequest,
    game: Game,
    board: Any,
    selected: str | None,
    *,
    message: str = "",
    hint: Move | None = None,
    error: bool | None = None,
    only: set[str] | None = None,
) -> dict[str, Any]:
    """What the game page draws; a move response draws the piles in ``only``."""
    owner = _owns(request, game)
    won = board.is_won()
    view = board_view(board, selected if owner else None, hint=hint, only=only)
    context = {
        "game": game,
        "rules": game.rules,
        "board": board,
        "view": view,
        "owner": owner,
        "four_colour": request.session.get("four_colour", False),
        "message": message,
        "error": bool(message) if error is None else error,
        "won": won,
        "ending": daily_ending(game, now=timezone.now()) if won and game.daily_id else None,
        "late": game.daily is not None and is_late(game.daily, game.finished_at or timezone.now()),
        "stuck": owner and not won and board.is_cycle_stuck(),
        # A won game is over: nothing to undo, redo or restart.
        "can_undo": owner and not won and (game.ply > 0 or bool(game.restart_ply)),
        "can_redo": owner and not won and game.redo > 0,
        "can_restart": owner and not won and game.ply > services.opening_ply(game, board),
        "clock": _clock(game) if owner and not game.is_finished else None,
    }
    # What the controls show, as the board script's Castle-Controls header says it back.
    flags = [context[name] for name in ("can_undo", "can_redo", "can_restart", "won")]
    context["controls"] = "".join("1" if flag else "0" for flag in [*flags, game.autoplay])
    return context


def _clock(game: Game) -> dict[str, int] | None:
    """What the page's clock (static/js/clock.js) needs to tick between moves as the server
    counts play time: the time stored, and the gap since the last action with its cap."""
    if game.active_at is None:
        return None
    since = (timezone.now() - game.active_at).total_seconds()
    return {
        "elapsed": int(game.elapsed.total_seconds()),
        "since": max(int(since), 0),
        "cap": int(services.IDLE_CAP.total_seconds()),
    }


def _owns(request: HttpRequest, game: Game) -> bool:
    return session_player_id(request) == game.owner_id


def rules_or_404(slug: str) -> GameRules:
    """The game a URL names (aliases too), or 404."""
    try:
        return get_game(slug)
    except RulesError as error:
        raise Http404(str(error)) from error


def _bad_request(request: HttpRequest, reason: str) -> HttpResponse:
    return render(request, "games/error.html", {"message": reason}, status=400)

"""Thin views: parse the request, call a service, render a page or its partials.

htmx requests get the changed partials of the same page template (``games/game.html#board``
plus out-of-band counter and status); plain forms get POST/redirect/GET, and a refused move
renders the full page with its 4xx status and the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils import timezone
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.http import reswap, retarget

from games import services
from games.daily import is_late
from games.forms import ActionForm, ImportForm, MoveForm, PlayForm, ReplayForm
from games.models import Game
from games.players import current_player, known_player, session_player_id
from games.presentation import (
    analysis_message,
    board_view,
    daily_ending,
    hint_message,
    layout_preview,
    move_list,
    parse_selection,
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


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    previews = [(rules, layout_preview(slug)) for slug, rules in GAMES.items()]
    player = known_player(request)
    resume = player.games.filter(status=Game.Status.PLAYING).first() if player else None
    return render(request, "games/home.html", {"previews": previews, "resume": resume})


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For load balancers and the benchmark's baseline: no database, no template."""
    return HttpResponse("ok", content_type="text/plain")


ROBOTS = "User-agent: *\nDisallow: /play/\nDisallow: /daily/*/play\nDisallow: /games/\n"


@require_GET
def robots(request: HttpRequest) -> HttpResponse:
    """Starting a game is a GET (shareable deal links): keep crawlers from starting games."""
    return HttpResponse(ROBOTS, content_type="text/plain")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the SVG icon."""
    return redirect(static("favicon.svg"), permanent=True)


@require_GET
def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    rules = rules_or_404(slug)
    return render(request, f"games/rules/{rules.slug}.html", {"rules": rules})


@require_GET
def play(request: HttpRequest, slug: str, deal: int | None = None) -> HttpResponse:
    """Start a game (a random deal, or the one in the URL) and go to its page."""
    rules = rules_or_404(slug)
    form = PlayForm(request.GET)
    if not form.is_valid() or (deal is not None and not PlayForm.deal_in_range(deal)):
        return _bad_request(
            request, form.error_text() or f"Deal numbers run from 1 to {form.max_deal}."
        )
    try:
        game = services.game_start(
            player=current_player(request),
            game=rules.slug,
            deal=deal,
            autoplay=form.cleaned_data["autoplay"],
            options=form.cleaned_data["options"],
            now=timezone.now(),
        )
    except RulesError as error:
        return _bad_request(request, str(error))
    return redirect(game)


@require_GET
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    board = services.game_board(game)
    selected = parse_selection(board, request.GET.get("select")) if _owns(request, game) else None
    context = _context(request, game, board, selected)
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
    )


def _action(service: Callable[..., services.Outcome]) -> Callable[..., HttpResponse]:
    @require_POST
    def view(request: HttpRequest, game_id: str) -> HttpResponse:
        form = ActionForm(request.POST)
        if not form.is_valid():
            return _refused(request, game_id, form.error_text(), status=400)
        return _act(request, game_id, service, expected_ply=form.cleaned_data["ply"])

    view.__name__ = service.__name__.removeprefix("game_")
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
    )


@require_GET
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    """Step through a game's current line, read-only, for anyone with the link."""
    game = get_object_or_404(Game, pk=game_id)
    line = services.game_line(game)
    form = ReplayForm(request.GET, total=len(line))
    if not form.is_valid():
        return _bad_request(request, form.error_text())
    ply = form.cleaned_data["ply"]
    board = services.line_board(game, line[:ply])
    moved = Move.from_notation(line[ply - 1]).target if ply else None
    context = {
        "game": game,
        "rules": game.rules,
        "view": board_view(board, interactive=False, hinted=moved),
        "ply": ply,
        "previous": max(ply - 1, 0),
        "next": min(ply + 1, len(line)),
        "total": len(line),
        "line": move_list(services.line_board(game, []), line),
        "owner": _owns(request, game),
    }
    return render(request, "games/replay.html" + ("#replay" if request.htmx else ""), context)


@require_http_methods(["GET", "POST"])
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
            game = services.game_import(
                player=current_player(request), record=record, now=timezone.now()
            )
            if form.cleaned_data["then"] == "continue" and not game.is_finished:
                return redirect(game)
            return redirect("games:replay", game_id=game.pk)
    status = 400 if error or form.errors else 200
    return render(request, "games/import.html", {"form": form, "error": error}, status=status)


@require_http_methods(["GET", "POST"])
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
        services.game_delete(game_id=game.pk, player_id=session_player_id(request))
        return redirect("games:my_games")
    return render(request, "games/confirm_delete.html", {"game": game, "rules": game.rules})


@require_POST
def hint(request: HttpRequest, game_id: str) -> HttpResponse:
    """Highlight the next move of a winning line, or say why there is none."""
    try:
        game, board, answer = services.game_hint(
            game_id=game_id, player_id=session_player_id(request)
        )
    except Game.DoesNotExist as error:
        raise Http404("No such game") from error
    except services.NotOwner as error:
        return _refused(request, game_id, str(error), status=403)
    except RulesError as error:
        return _refused(request, game_id, str(error), status=422)
    message, bad_news = hint_message(board, answer)
    selected = None
    if answer.move is not None:
        selected = f"r:{answer.move.card}" if answer.move.card else answer.move.source
    context = _context(request, game, board, selected, message=message, hint=answer.move)
    context["error"] = bad_news
    template = "games/move_response.html" if request.htmx else GAME_PAGE
    return render(request, template, context)


@require_GET
def analyse(request: HttpRequest, game_id: str) -> HttpResponse:
    """After a lost game: the move after which it could no longer be won (owner only: the
    search costs seconds)."""
    game = get_object_or_404(Game, pk=game_id)
    if not _owns(request, game):
        return _refused(request, game_id, "Only the player of this game can analyse it", status=403)
    ply = services.game_analyse(game)
    context = {"message": analysis_message(game, ply), "game": game, "ply": ply, "error": False}
    template = "games/game.html#status" if request.htmx else "games/analysis.html"
    return render(request, template, context)


@require_GET
def record(request: HttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    text = services.game_record(game).to_text()
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


# -- helpers ------------------------------------------------------------------------------


def _act(
    request: HttpRequest,
    game_id: str,
    service: Callable[..., services.Outcome],
    *,
    expected_ply: int | None,
    selected: str | None = None,
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
    context = _context(request, outcome.game, outcome.board, None)
    return render(request, "games/move_response.html", context)


def _see_other(game: Game) -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = game.get_absolute_url()
    return response


def _conflict(request: HttpRequest, error: services.GameConflict) -> HttpResponse:
    game = error.game
    game.refresh_from_db()
    board = services.game_board(game)
    context = _context(request, game, board, None, message=str(error))
    template = "games/move_response.html" if request.htmx else GAME_PAGE
    return render(request, template, context, status=409)


def _refused(
    request: HttpRequest, game_id: str, reason: str, *, status: int, selected: str | None = None
) -> HttpResponse:
    """The board stays as it was; the player reads why."""
    game = get_object_or_404(Game, pk=game_id)
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
) -> dict[str, Any]:
    owner = _owns(request, game)
    won = board.is_won()
    view = board_view(board, selected if owner else None, hinted=hint.target if hint else None)
    return {
        "game": game,
        "rules": game.rules,
        "board": board,
        "view": view,
        "owner": owner,
        "four_colour": request.session.get("four_colour", False),
        "message": message,
        "error": bool(message),
        "won": won,
        "ending": daily_ending(game) if won and game.daily_id else None,
        "late": game.daily is not None and is_late(game.daily, game.finished_at or timezone.now()),
        "stuck": owner and not won and board.is_cycle_stuck(),
        # After a win only Redo-free reading makes sense: no undo, restart or hint.
        "can_undo": owner and not won and (game.ply > 0 or bool(game.restart_ply)),
        "can_redo": owner and not won and game.redo > 0,
        "can_restart": owner and not won and game.ply > 0,
        "clock": _clock(game) if owner and not game.is_finished else None,
    }


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

"""Who is asking, and the writes that belong to a player rather than to one game.

Every visitor gets a player, whose id the (signed) session carries. An account is optional:
signing up or logging in adopts the anonymous player's games, so nothing is lost but a second
game of a daily the account has already played (one try a day: ``_merge_dailies``).
"""

from __future__ import annotations

import functools
import re
import uuid
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from importlib import import_module
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth import SESSION_KEY as SESSION_AUTH_KEY
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.db.models.signals import post_save, pre_delete, pre_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone

from games import leaderboard
from games.models import AccountSession, Entry, Game, PlayedMove, Player
from games.names import looks_nameless, skeleton
from games.stats import forget_stats

SESSION_KEY = "castle_player"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._'-]{1,23}")
"""Display names: 2-24 letters, digits, spaces and . _ ' - (no markup, no look-alikes)."""


def session_player_id(request: HttpRequest) -> uuid.UUID | None:
    """The player id the session carries, without touching the database."""
    value = request.session.get(SESSION_KEY)
    try:
        return uuid.UUID(value) if value else None
    except (TypeError, ValueError):
        return None


def current_player(request: HttpRequest) -> Player:
    """The request's player, created (and remembered in the session) on a first visit.

    A new session is saved at once, so that the player knows its key: a client without
    cookies makes a player and a session on every visit, and when the hourly pruning
    deletes such a player (nothing kept, ``games.schedule``) it ends that session too,
    instead of leaving it for the session's 400 days."""
    player = known_player(request)
    if player is None:
        player = Player()
        request.session[SESSION_KEY] = str(player.pk)
        if request.session.session_key is None:
            request.session.save()
        player.session_key = request.session.session_key or ""
        player.save(force_insert=True)
    return player


def hold(player: Player) -> None:
    """Call inside the transaction that writes a row naming ``player`` (a game), or the
    player itself: lock the player's row, or write it again, with the same id and the values
    this request read, when the hourly pruning deleted it since (``games.schedule``: an
    anonymous player with nothing kept). Without this, the race ends in a foreign key's
    error at commit, a 500; with it, the pruning either finds the new game and keeps the
    player, or has deleted it first and this request brings it back as it read it."""
    if Player.objects.select_for_update().filter(pk=player.pk).exists():
        return
    try:
        with transaction.atomic():  # a savepoint: PostgreSQL's transaction outlives the error
            player.save(force_insert=True)
    except IntegrityError:  # another request of the same player brought it back first
        Player.objects.select_for_update().get(pk=player.pk)


def known_player(request: HttpRequest) -> Player | None:
    """The request's player if it has one already; never creates one (for read-only pages).

    A player with an account belongs only to sessions logged in to that account: a session
    that names it without the log-in (an old anonymous cookie) has no player."""
    player_id = session_player_id(request)
    player = Player.objects.filter(pk=player_id).first() if player_id else None
    logged_in = request.session.get(SESSION_AUTH_KEY)
    if player is not None and player.user_id is not None and str(player.user_id) != logged_in:
        return None
    return player


def player_games(player: Player) -> QuerySet[Game]:
    """The player's games as My games lists them: unfinished ones first, then won ones, each
    most recently played first. ``Game.Status`` values sort that way ("playing" before
    "won"), so the order is ``game_owner_idx``'s, read from the index: ordered by a ``Case``
    on the status, the database sorted every game the player had for each page (12.9 ms
    against 0.7 ms at 20,000 games; a review)."""
    return (
        Game.objects.filter(owner=player)
        .select_related("daily")  # each row's deal label reads its daily
        .order_by("status", "-updated_at")
    )


class BoardLook(NamedTuple):
    """How a player's board is drawn: kept on the player, so it follows an account to every
    browser."""

    four_colour: bool = False
    glide: bool = True


def board_look(player_id: uuid.UUID | None) -> BoardLook:
    """The player's deck colours and card motion (a visitor's: the defaults)."""
    if player_id is None:
        return BoardLook()
    row = Player.objects.filter(pk=player_id).values_list("four_colour", "glide").first()
    return BoardLook(*row) if row else BoardLook()


MAX_ACCOUNT_SESSIONS = 50
"""The sessions an account keeps logged in at once; a log-in past them ends the oldest. Each
log-in without a cookie left one more for 400 days: an attacker's 20,000 made logging out
everywhere, a password change and a moderator's deactivation run past the server's 30 s
(each ended the sessions one by one), and the change's 500 left a copied cookie playing."""

SESSION_BATCH = 500
"""Sessions ended in one query (the parameters of one ``IN``)."""


def remember_session(*, user_id: int, session_key: str | None, replaces: str | None = None) -> None:
    """Index a logged-in session under its account, so ``end_sessions`` can find it:
    at a log-in, and when Django gives the session a new key (``replaces``, the key it had:
    ``castle_site.sessions.IndexedKeys``). A deleted account's sessions are not indexed; an
    account's sessions past ``MAX_ACCOUNT_SESSIONS`` end, the oldest first."""
    if replaces:
        AccountSession.objects.filter(session_key=replaces).delete()
    if not session_key or not User.objects.filter(pk=user_id).exists():
        return
    AccountSession.objects.update_or_create(session_key=session_key, defaults={"user_id": user_id})
    indexed = AccountSession.objects.filter(user_id=user_id).order_by("-created_at", "-pk")
    keys = list(indexed.values_list("session_key", flat=True))
    # Sessions also end on their own (expiry, clearsessions): forget those. Only the
    # account's own are looked up: a NOT IN over every live session of the site made each
    # log-in scan them all (3 s of CPU at 500,000, SQLite's write lock held: an attacker's
    # pass saw another player's move wait 9.5 s).
    now = timezone.now()
    live: set[str] = set()
    for batch in _batches(keys):
        sessions = Session.objects.filter(session_key__in=batch, expire_date__gt=now)
        live.update(sessions.values_list("session_key", flat=True))
    _forget([key for key in keys if key not in live])
    _end([key for key in keys if key in live][MAX_ACCOUNT_SESSIONS:])


def end_sessions(*, user: User) -> int:
    """End every session logged in to ``user``'s account: their cookies become empty
    sessions with no player. Returns how many ended."""
    indexed = AccountSession.objects.filter(user=user)
    return _end(list(indexed.values_list("session_key", flat=True)))


def _end(keys: list[str]) -> int:
    delete_sessions(keys)
    _forget(keys)
    return len(keys)


def _forget(keys: list[str]) -> None:
    """Drop these sessions from their accounts' index."""
    for batch in _batches(keys):
        AccountSession.objects.filter(session_key__in=batch).delete()


def _batches(keys: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(keys), SESSION_BATCH):
        yield keys[start : start + SESSION_BATCH]


def delete_sessions(keys: Iterable[str]) -> None:
    """Delete these sessions (the database's rows and the cache's copies), a batch a query:
    their cookies come back as empty sessions, with no player."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    sessions = store.get_model_class().objects
    cached = caches[settings.SESSION_CACHE_ALIAS] if hasattr(store, "cache_key_prefix") else None
    for batch in _batches(list(keys)):
        sessions.filter(session_key__in=batch).delete()
        if cached is not None:
            cached.delete_many([store.cache_key_prefix + key for key in batch])


def checked_name(name: str, *, player_id: uuid.UUID | None = None) -> str:
    """``name`` as leaderboards would show it (spaces folded), if a player (``player_id``:
    this one, whose own name it may be) may take it; ``ValidationError`` says what is wrong
    with it."""
    name = " ".join(name.split())
    if not NAME.fullmatch(name):
        raise ValidationError(
            "Use 2 to 24 of the letters A to Z (without accents), digits, spaces or . _ ' -, "
            "and start with a letter or digit."
        )
    if looks_nameless(name):
        raise ValidationError(
            f"{name!r} is how a player without a name is shown: choose another name."
        )
    same = Player.objects.filter(Q(display_name__iexact=name) | Q(name_key=skeleton(name)))
    if player_id is not None:
        same = same.exclude(pk=player_id)
    if same.exists():
        raise _taken(name)
    return name


def _taken(name: str) -> ValidationError:
    return ValidationError(f"{name!r} is taken, or reads as a name that is: choose another name.")


def player_set_name(*, player: Player, name: str) -> Player:
    """Set the name leaderboards show; ``ValidationError`` says what is wrong with it."""
    name = checked_name(name, player_id=player.pk)
    try:
        with transaction.atomic():
            hold(player)  # before the new name: a player written again keeps the one it had
            player.display_name, player.name_key = name, skeleton(name)
            player.save(update_fields=["display_name", "name_key"])
    except IntegrityError as error:  # taken between the check and the save
        raise _taken(name) from error
    return player


def player_set_preferences(
    *, player: Player, four_colour: bool, autoplay: bool, glide: bool
) -> Player:
    """The deck's colours, whether new games start with auto-play on, and whether cards
    glide."""
    player.four_colour, player.autoplay, player.glide = four_colour, autoplay, glide
    with transaction.atomic():
        hold(player)
        player.save(update_fields=["four_colour", "autoplay", "glide"])
    return player


@transaction.atomic
def player_adopt(*, anonymous_id: uuid.UUID | None, user: User) -> Player:
    """The account's player after a log-in, holding the anonymous player's games too.

    A first log-in (or a sign-up) turns the anonymous player into the account's; a later
    one moves the anonymous games and daily entries to the account's player (for a daily
    both have a game of, the account's stands once played: ``_merge_dailies``) and drops the
    empty anonymous one. Daily wins whose day is over come flagged (``_held_after_the_day``).

    Locks the anonymous player's games before the player, in the order a move takes them (its
    game row, then its player's, which a daily win's entry refers to). Player first, a win in
    another tab deadlocked with the log-in on PostgreSQL, and the winning move was lost to a
    500 (a review). A move that read a game before it changed owner meets a new ``version``
    and a conflict, rather than writing an entry for the player about to go.

    Two log-ins to one account take turns (its user row, locked first): an account made
    outside sign-up (``createsuperuser``, the admin) has no player until a log-in makes one,
    and two at once both made one, the second a 500 on the unique user (a review).
    """
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).exists()
    if anonymous_id:
        games = Game.objects.select_for_update().filter(owner_id=anonymous_id).order_by("pk")
        list(games.values_list("pk", flat=True))  # locked till the log-in commits
    anonymous = (
        Player.objects.select_for_update().filter(pk=anonymous_id, user=None).first()
        if anonymous_id
        else None
    )
    if anonymous is not None:
        _held_after_the_day(anonymous, timezone.now())
        _recount_when_claimed(anonymous)
    account = Player.objects.filter(user=user).first()
    if account is None:
        account = anonymous or Player()
        account.user = user
        account.session_key = ""  # the log-in ended it; an account's player is never pruned
        account.save()
        return account
    if anonymous is not None and anonymous.pk != account.pk:
        _merge_dailies(anonymous, account)
        Entry.objects.filter(player=anonymous).update(player=account)
        Game.objects.filter(owner=anonymous).update(owner=account, version=F("version") + 1)
        transaction.on_commit(functools.partial(forget_stats, account.pk))
        if not account.display_name and anonymous.display_name:
            account.display_name, anonymous.display_name = anonymous.display_name, ""
            account.name_key, anonymous.name_key = anonymous.name_key, ""
            anonymous.save(update_fields=["display_name", "name_key"])
            account.save(update_fields=["display_name", "name_key"])
        anonymous.delete()
    return account


def _recount_when_claimed(anonymous: Player) -> None:
    """The anonymous player's wins rank once an account holds them: their dailies' shared
    counts are forgotten at the commit (``leaderboard.forget_counts``), or the winner's own
    panel read "Your rank 1 of 0" until they went stale."""
    claimed = list(anonymous.entries.values_list("daily_id", flat=True))
    if claimed:
        transaction.on_commit(lambda: leaderboard.forget_counts(claimed))


CLAIMED_LATE = "won without an account and claimed by one after the day had ended"


def _held_after_the_day(anonymous: Player, now: datetime) -> None:
    """Flag the anonymous player's daily wins whose day is over: they rank once a moderator
    has looked at them. A day's standings were final at its end, yet an anonymous on-time
    win claimed days later ranked then, chosen among any number of throwaway tries once the
    day's final standings were known (an attacker's pass)."""
    today = now.astimezone(UTC).date()
    Entry.objects.filter(player=anonymous, daily__date__lt=today, flagged=False).update(
        flagged=True, flag_reason=CLAIMED_LATE
    )


def _merge_dailies(anonymous: Player, account: Player) -> None:
    """Before moving the anonymous games: a player has one game of each daily, so where both
    players have a game of the same daily, one of them is deleted (its entry goes with it).

    The account's game stands once its player has played it (a move of their own, even one
    since undone; the opening's auto-play is not theirs; or a hint asked): otherwise a
    player who had tried the day's deal on their account could try it again anonymously and
    log in to swap the result for a better one (hints asked on the account's game went with
    it, an attacker's pass). Only an account's game opened but never played gives way to
    the anonymous game, and its entry."""
    own_move = PlayedMove.objects.filter(game=OuterRef("pk"), auto=False)
    mine = {
        game.daily_id: game
        for game in account.games.filter(daily__isnull=False).annotate(own_move=Exists(own_move))
    }
    for theirs in anonymous.games.filter(daily_id__in=list(mine)):
        ours = mine[theirs.daily_id]
        # Switching auto-play on drops undone rows: an undo counts as a move played.
        played = ours.own_move or ours.undos > 0 or ours.hints > 0
        (theirs if played else ours).delete()


@receiver(pre_save, sender=User)
def _note_a_new_password(
    sender: object, instance: User, update_fields: object, **_: object
) -> None:
    """Whether this save sets a new password (``_end_sessions_when_access_changes`` reads
    it). Only a whole save does: a password changed by a form, the admin or ``changepassword``;
    Django's own rehash at a log-in (``update_fields=["password"]``: the same password, a
    stronger hash) ends nothing."""
    changed = False
    if instance.pk is not None and update_fields is None:
        stored = User.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
        changed = stored is not None and stored != instance.password
    instance._castle_new_password = changed  # type: ignore[attr-defined]


@receiver(post_save, sender=User)
def _end_sessions_when_access_changes(
    sender: object, instance: User, created: bool, **_: object
) -> None:
    """A deactivated account's open sessions end, and a changed password's: the site reads
    a session's player without its account (``session_player_id``), so a session left open
    went on playing, hinting and ranking a daily win 1st after the account was deactivated,
    or after a moderator reset its password (attackers' passes). The site's own password
    change keeps the session that made it: ``update_session_auth_hash`` saves its data,
    still in memory, again under a new key, which ``castle_site.sessions.IndexedKeys``
    indexes."""
    if created:
        return
    if not instance.is_active or getattr(instance, "_castle_new_password", False):
        end_sessions(user=instance)


@receiver(pre_delete, sender=User)
def _end_sessions_of_a_deleted_account(sender: object, instance: User, **_: object) -> None:
    """A deleted account's sessions end with it: a copied cookie kept its player, its name
    and its games (an attacker's pass)."""
    end_sessions(user=instance)


@receiver(user_logged_in)
def _adopt_on_login(sender: object, request: HttpRequest | None, user: User, **_: object) -> None:
    if request is None:
        return
    player = player_adopt(anonymous_id=session_player_id(request), user=user)
    request.session[SESSION_KEY] = str(player.pk)
    remember_session(user_id=user.pk, session_key=request.session.session_key)

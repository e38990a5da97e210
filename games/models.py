"""Players, games and their moves. The move rows are the source of truth: a game's cached
``position`` is always the replay of its current line (``Game.board()`` checks nothing
else)."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

from games.rules import MAX_DEAL, Board, GameRules, RulesError, get_game


def known_game(slug: str) -> None:
    """Model validation of a game slug against the registry (``games.rules.GAMES``): the
    game list lives in code, not in the schema, so adding a game needs no migration."""
    try:
        rules = get_game(slug)
    except RulesError as error:
        raise ValidationError(str(error)) from error
    if rules.slug != slug:
        raise ValidationError(f"{slug!r} is an alias: store {rules.slug!r}")


class DealChoice(models.TextChoices):
    """What New game deals: a deal the solver proved winnable (of a difficulty), or any."""

    WINNABLE = "winnable", "Winnable deal, any difficulty"
    EASY = "easy", "Winnable deal, easy"
    MEDIUM = "medium", "Winnable deal, medium"
    HARD = "hard", "Winnable deal, hard"
    ANY = "any", "Any deal (may be unwinnable)"


NAMELESS = re.compile(r"player [0-9a-f]{6}", re.IGNORECASE)
"""The name a player without a display name is shown by (:attr:`Player.name`): "Player"
and the first six hex digits of its id. No display name may take that form."""


class Player(models.Model):
    """Whoever plays: anonymous (a long-lived session) until linked to an account."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    display_name = models.CharField(max_length=40, blank=True)
    name_key = models.CharField(
        max_length=40,
        blank=True,
        default="",
        editable=False,
        help_text="The display name as it reads (games.names.skeleton): unique, so no name"
        " passes for another. Set with the name (games.players); empty for the names older"
        " than it that read as an earlier one.",
    )
    autoplay = models.BooleanField(default=True, help_text="Send safe cards to foundations.")
    four_colour = models.BooleanField(default=False)
    glide = models.BooleanField(
        default=True,
        help_text="Cards glide from pile to pile; off, each move shows at once (as with the"
        " system's reduced motion).",
    )
    new_deals = models.CharField(
        max_length=8,
        choices=DealChoice,
        default=DealChoice.WINNABLE,
        help_text="What New game deals.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    session_key = models.CharField(
        max_length=40,
        blank=True,
        editable=False,
        help_text="The session made with this anonymous player: it ends when the player is"
        " pruned (games.schedule).",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name="player_display_name_unique",
            ),
            models.UniqueConstraint(
                fields=["name_key"],
                condition=~models.Q(name_key=""),
                name="player_name_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """What leaderboards show: the display name, or an anonymous handle."""
        return self.display_name or f"Player {str(self.id)[:6]}"


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "In progress"
        WON = "won", "Won"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    slug = models.CharField(max_length=32, validators=[known_game])
    deal = models.BigIntegerField()
    options = models.JSONField(default=list, blank=True)
    # Looked up through ``game_owner_idx`` and ``game_owner_deal_idx``, which begin with it.
    owner = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="games", db_index=False
    )
    status = models.CharField(max_length=8, choices=Status, default=Status.PLAYING)
    autoplay = models.BooleanField(default=True)
    ply = models.PositiveIntegerField(default=0, help_text="Moves on the current line.")
    position = models.TextField(help_text="Layout text: the replay of the current line.")
    daily = models.ForeignKey(
        "Daily", null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    hints = models.PositiveIntegerField(default=0, help_text="Hints asked for.")
    undos = models.PositiveIntegerField(default=0)
    redo = models.PositiveIntegerField(default=0, help_text="Undone moves Redo can replay.")
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped by every write: writers compare and swap it."
    )
    restart_ply = models.PositiveIntegerField(
        null=True, blank=True, help_text="The ply a restart left, while undoing it is possible."
    )
    elapsed = models.DurationField(default=timedelta, help_text="Server-measured play time.")
    active_at = models.DateTimeField(null=True, blank=True, help_text="The last action.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    imported = models.BooleanField(
        default=False, help_text="Started from a pasted record: never counts in statistics."
    )

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["owner", "status", "-updated_at"], name="game_owner_idx"),
            # Whether any game still shows a deal's verdict (schedule.prune_solver_answers).
            models.Index(fields=["slug", "deal"], name="game_deal_idx"),
            # Whether a player has had a pooled deal (pools._pooled): one probe per
            # candidate, however many games the player or the deal has.
            models.Index(fields=["owner", "slug", "deal"], name="game_owner_deal_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(deal__gte=1) & models.Q(deal__lte=MAX_DEAL),
                name="game_deal_in_range",
            ),
            # One daily game per player per day (RULES.md), however many requests race.
            models.UniqueConstraint(
                fields=["owner", "daily"],
                condition=models.Q(daily__isnull=False),
                name="game_unique_owner_daily",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rules.name} #{self.deal} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("games:game", args=[self.id])

    @property
    def rules(self) -> GameRules:
        return get_game(self.slug)

    def fresh_board(self) -> Board:
        return Board(self.slug, self.deal, options=self.options)

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.WON

    @property
    def shows_deal(self) -> bool:
        """Whether titles, links and share text may name the deal: never a live daily's
        (its moves are secret until its UTC day ends)."""
        return self.daily is None or not self.daily.is_live(timezone.now())

    @property
    def deal_label(self) -> str:
        if self.daily is None or self.shows_deal:
            return f"deal {self.deal}"
        return f"daily of {self.daily.date.day} {self.daily.date:%B %Y}"


class PlayedMove(models.Model):
    """One ply of a game, as stored (the engine's value is ``games.rules.Move``). Rows with
    ``undone`` set are the redo stack: they follow the current line and are replaced when a
    different move is played there."""

    # Looked up through ``move_unique_game_ply``, which begins with it: an index of its own
    # cost every move a write more (a review).
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="played_moves", db_index=False
    )
    ply = models.PositiveIntegerField(help_text="1 for the first move of the line.")
    notation = models.CharField(max_length=16)
    auto = models.BooleanField(default=False, help_text="Played by auto-play, not a click.")
    undone = models.BooleanField(default=False)
    played_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_game_ply"),
            models.CheckConstraint(condition=models.Q(ply__gte=1), name="move_ply_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.notation}{' (auto)' if self.auto else ''}"


class Difficulty(models.TextChoices):
    """A proved deal's label (``solver.difficulty``): a pooled deal's and a daily's."""

    EASY = "easy", "Easy"
    MEDIUM = "medium", "Medium"
    HARD = "hard", "Hard"


class Daily(models.Model):
    """One deal per game per UTC date, the same for everyone, proved winnable by the solver."""

    slug = models.CharField(max_length=32, validators=[known_game])
    date = models.DateField()
    deal = models.BigIntegerField()
    par = models.PositiveIntegerField(help_text="The length of the solver's winning line.")
    solution = models.TextField(help_text="The solver's winning line: the proof.")
    difficulty = models.CharField(
        max_length=6,
        choices=Difficulty,
        blank=True,
        help_text="The solver's effort to prove it (as a pooled deal's: RULES pages); blank "
        "for a daily prepared before dailies had one.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["slug", "date"], name="daily_unique_game_date")
        ]
        indexes = [models.Index(fields=["deal"], name="daily_deal")]
        """A typed deal number is looked up among the live dailies of every game
        (``daily.live_daily_of_deal``)."""

    def __str__(self) -> str:
        return f"{self.rules.name} daily {self.date:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("games:daily_leaderboard", args=[self.date.isoformat(), self.slug])

    @property
    def rules(self) -> GameRules:
        return get_game(self.slug)

    def is_live(self, now: datetime) -> bool:
        """Until its UTC day ends, a daily's moves are secret and its deal cannot be
        practised."""
        return now.astimezone(UTC).date() <= self.date

    def is_late(self, when: datetime) -> bool:
        """A win after the daily's UTC date is late: shown, never ranked."""
        return when.astimezone(UTC).date() > self.date


class DailyLook(models.Model):
    """A game of a daily opened from a network: what ``leaderboard.opened_elsewhere`` reads
    at a win. Its own row, not the game's: a log-in that merges two games of one daily
    deletes one of them, and the look it was stays (an attacker's pass: the look's game
    deleted by logging its session in, the win from the same network ranked 1st). Kept
    while its day is live (``schedule.prune_daily_looks``)."""

    daily = models.ForeignKey(Daily, on_delete=models.CASCADE, related_name="looks", db_index=False)
    network = models.CharField(
        max_length=16,
        help_text="A keyed digest of the network (daily.network_digest), never the address.",
    )
    game = models.UUIDField(help_text="The game opened, which a log-in may have merged away.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["daily", "network"], name="look_daily_network_idx")]
        constraints = [
            models.UniqueConstraint(fields=["daily", "game"], name="look_unique_daily_game")
        ]

    def __str__(self) -> str:
        return f"{self.daily} opened from {self.network}"


class Entry(models.Model):
    """A player's best on-time win of a daily: created only by the server, at the winning
    move of a game it validated from the daily's deal."""

    # Looked up through ``entry_rank_idx`` and ``entry_unique_daily_player``.
    daily = models.ForeignKey(
        Daily, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entries")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="entry")
    moves = models.PositiveIntegerField()
    elapsed = models.DurationField()
    undos = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField()
    flagged = models.BooleanField(
        default=False,
        help_text="Held for a moderator (flag_reason says why): unranked until cleared.",
    )
    flag_reason = models.CharField(max_length=200, blank=True)
    hidden = models.BooleanField(default=False, help_text="Hidden by a moderator: never ranked.")

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["moves", "elapsed", "finished_at"]
        constraints = [
            models.UniqueConstraint(fields=["daily", "player"], name="entry_unique_daily_player")
        ]
        indexes = [
            models.Index(fields=["daily", "moves", "elapsed", "finished_at"], name="entry_rank_idx")
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.daily}: {self.moves} moves"

    @property
    def rank_key(self) -> tuple[int, timedelta, datetime]:
        """Fewest moves, then shortest play time, then earliest finish (RULES.md)."""
        return (self.moves, self.elapsed, self.finished_at)


class DealVerdict(models.Model):
    """What the solver found about one deal (no easing options): a winning line (the proof),
    no line at all, or no answer within its budget. Pool tasks store the winnable deals they
    find (``pooled``), which New game deals; a deal number a player typed gets one too."""

    class Verdict(models.TextChoices):
        PENDING = "pending", "Not checked yet"
        WINNABLE = "winnable", "Winnable"
        UNWINNABLE = "unwinnable", "Unwinnable"
        UNKNOWN = "unknown", "Unknown"

    Difficulty = Difficulty  # the module's: a daily's label too

    slug = models.CharField(max_length=32, validators=[known_game])
    deal = models.BigIntegerField()
    verdict = models.CharField(max_length=10, choices=Verdict, default=Verdict.PENDING)
    solution = models.TextField(blank=True, help_text="The solver's winning line: the proof.")
    moves = models.PositiveIntegerField(default=0, help_text="The winning line's length.")
    nodes = models.PositiveIntegerField(default=0, help_text="Positions the solver expanded.")
    difficulty = models.CharField(max_length=6, choices=Difficulty, blank=True)
    pooled = models.BooleanField(
        default=False, help_text="Found by a pool task among random deals: New game deals it."
    )
    dealt = models.PositiveIntegerField(default=0, help_text="Games New game started with it.")
    hinted = models.BooleanField(
        default=False,
        help_text="Proved by a player's moves and then a hint's line, not by a search from the "
        "deal: it guides no hint, and the worker's search replaces it.",
    )
    requested_at = models.DateTimeField()
    solved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["slug", "deal"]
        constraints = [
            models.UniqueConstraint(fields=["slug", "deal"], name="dealverdict_unique_game_deal"),
            models.CheckConstraint(
                condition=models.Q(deal__gte=1) & models.Q(deal__lte=MAX_DEAL),
                name="dealverdict_deal_in_range",
            ),
            models.CheckConstraint(
                condition=~models.Q(verdict="winnable") | ~models.Q(solution=""),
                name="dealverdict_winnable_has_proof",
            ),
        ]
        indexes = [
            # New game's least dealt deal of a difficulty; the pool's bound
            # (schedule.prune_pools).
            models.Index(
                fields=["slug", "pooled", "difficulty", "dealt"], name="dealverdict_pool_idx"
            ),
            # New game's least dealt deal of any difficulty; the fresh ones (pools.fresh_counts).
            models.Index(fields=["slug", "pooled", "dealt"], name="dealverdict_pool_dealt_idx"),
            # The verdicts waiting for the worker: how many (pools.MAX_PENDING), and the lost
            # ones (pools.top_up). A handful of rows, however many verdicts are kept.
            models.Index(
                fields=["requested_at"],
                condition=models.Q(verdict="pending"),
                name="dealverdict_pending_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{get_game(self.slug).name} #{self.deal}: {self.get_verdict_display()}"

    @property
    def line(self) -> list[str]:
        return self.solution.split()

    @classmethod
    def for_game(cls, game: Game) -> DealVerdict | None:
        """What the verdict of a game's deal says of that game: none for a daily (proved
        anyway) and, with an easing option, only "winnable" (an option can only add lines,
        so a deal lost without it may be won with it)."""
        if game.daily_id is not None:
            return None
        row = cls.objects.filter(slug=game.slug, deal=game.deal).first()
        if row is not None and game.options and row.verdict != cls.Verdict.WINNABLE:
            return None
        return row


class DailyPreparation(models.Model):
    """A date whose dailies are queued for preparation: one row per date, so however many
    requests find a day missing, one task is queued (the one that writes this row queues it)."""

    date = models.DateField(unique=True)
    task_id = models.CharField(max_length=64, blank=True)
    queued_at = models.DateTimeField()
    searched = models.JSONField(
        default=list,
        blank=True,
        help_text="The games a task searched to its end for this date (games.daily_tasks):"
        " one still missing is not queued again. Kept here, as the task's result is pruned"
        " after a day.",
    )

    def __str__(self) -> str:
        return f"dailies of {self.date:%Y-%m-%d} queued at {self.queued_at:%H:%M:%S}"


class Analysis(models.Model):
    """Where a line of play was lost: the solver's answer for one deal and line of moves,
    shared by every game that reached that line. Filled in by a background task."""

    key = models.CharField(max_length=64, unique=True, help_text="sha256 of game, deal, line.")
    ply = models.PositiveIntegerField(
        null=True, blank=True, help_text="The move after which it could not be won."
    )
    done = models.BooleanField(default=False)
    requested_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "analyses"
        indexes = [
            models.Index(
                fields=["requested_at"], condition=models.Q(done=False), name="analysis_pending_idx"
            )
        ]

    def __str__(self) -> str:
        return f"analysis {self.key[:12]}"


class AccountSession(models.Model):
    """A session logged in to an account: what logging out or changing the password ends
    everywhere (Django keeps no index of a user's sessions)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="castle_sessions"
    )
    session_key = models.CharField(max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"session of {self.user}"

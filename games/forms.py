"""Request parsing: every field bounded, every error a sentence (answered with a 4xx)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.template.defaultfilters import pluralize

from games.models import DealChoice
from games.rules import MAX_DEAL

PLY_LIMIT = 100_000


class _Form(forms.Form):
    def error_text(self) -> str:
        for field, errors in self.errors.items():
            name = "" if field == "__all__" else f"{field}: "
            return f"{name}{errors[0]}"
        return ""


class PlayForm(_Form):
    """``/play/GAME/?autoplay=0&option=take-back&deals=hard&remember=1``: ``deals`` is what
    New game deals (default: the player's preference, saved with ``remember``)."""

    max_deal = MAX_DEAL
    autoplay = forms.TypedChoiceField(
        choices=[("0", "off"), ("1", "on")],
        coerce=lambda value: value == "1",
        required=False,
        empty_value=None,
    )
    option = forms.MultipleChoiceField(choices=[("take-back", "take-back")], required=False)
    deals = forms.ChoiceField(choices=DealChoice, required=False)
    remember = forms.TypedChoiceField(
        choices=[("0", "no"), ("1", "yes")], coerce=lambda value: value == "1", required=False
    )

    @staticmethod
    def deal_in_range(deal: int) -> bool:
        return 1 <= deal <= MAX_DEAL

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        data["options"] = data.get("option") or []
        return data


class DealsForm(_Form):
    """The New game choice on the home page (its buttons submit it to ``/play/GAME/``)."""

    deals = forms.ChoiceField(choices=DealChoice, label="New games deal")
    remember = forms.CharField(initial="1", widget=forms.HiddenInput)


class ActionForm(_Form):
    ply = forms.IntegerField(min_value=0, max_value=PLY_LIMIT, required=False)

    def service_arguments(self) -> dict[str, object]:
        """What the action's service takes from the form beside the ply."""
        return {}


class RestartForm(ActionForm):
    """A restart, to the opening or (``to``) to the position after that many moves."""

    to = forms.IntegerField(min_value=0, max_value=PLY_LIMIT, required=False)

    def service_arguments(self) -> dict[str, object]:
        return {"to_ply": self.cleaned_data["to"]}


class AutoplayForm(ActionForm):
    """The auto-play switch: ``autoplay`` "1" turns it on, anything else off."""

    autoplay = forms.CharField(max_length=1, required=False)

    def service_arguments(self) -> dict[str, object]:
        return {"on": self.cleaned_data["autoplay"] == "1"}


class MoveForm(ActionForm):
    """A move: ``move`` in notation (the page's buttons, which work without JavaScript), or
    the selected card ``select`` and the pile it goes ``to`` (the board script, which
    writes no notation: the engine reads the pair, ``Board.selected_move``). Beside a
    ``move``, ``select`` is the selection to keep should the move be refused."""

    move = forms.CharField(max_length=16, strip=True, required=False)
    select = forms.CharField(max_length=8, required=False)
    to = forms.CharField(max_length=4, required=False)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not data.get("move") and not (data.get("select") and data.get("to")):
            raise forms.ValidationError("Name a move, or a selected card and where it goes.")
        return data

    def selection(self) -> str | None:
        return self.cleaned_data.get("select") or None

    def asked(self) -> str | tuple[str, str]:
        """The move asked for: its notation, or the selection and its target."""
        data = self.cleaned_data
        return data["move"] or (data["select"], data["to"])


class ReplayForm(_Form):
    """``?ply=N``: which position of the line to show (default: the last)."""

    ply = forms.IntegerField(min_value=0, required=False)

    def __init__(self, *args: object, total: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.total = total
        ply = self.fields["ply"]
        assert isinstance(ply, forms.IntegerField)
        ply.max_value = total
        ply.validators.append(MaxValueValidator(total))
        # For a person, not "ply: Ensure this value is less than or equal to 74."
        words = f"This game's line has {total} move{pluralize(total)}: its replay shows"
        words += f" positions 0 (the deal) to {total}." if total else " only the deal (0)."
        ply.error_messages = {
            **ply.error_messages,
            **dict.fromkeys(("invalid", "min_value", "max_value"), words),
        }

    def error_text(self) -> str:
        errors = self.errors.get("ply")
        return str(errors[0]) if errors else super().error_text()

    def clean_ply(self) -> int:
        ply = self.cleaned_data.get("ply")
        return self.total if ply is None else ply


IMPORT_MAX_CHARS = 32_000
"""A record of ``MAX_PLIES`` moves takes about 16,000 characters (8 per move at most)."""


class ImportForm(_Form):
    record = forms.CharField(
        max_length=IMPORT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        help_text="A game record as the Record link gives it: game:, deal:, then the moves.",
    )
    then = forms.ChoiceField(
        choices=[("replay", "Replay it"), ("continue", "Continue it as my game")],
        initial="replay",
        widget=forms.RadioSelect,
    )


class SignupForm(UserCreationForm[User]):
    """Django's sign-up form, whose password checks ("too short", "too common") are told
    under the password itself: Django puts them under the confirmation, which is right only
    when the two differ."""

    def validate_password_for_user(
        self, user: User, password_field_name: str = "password1", **kwargs: Any
    ) -> None:
        # The stubs lack this method of Django 5.1 (SetPasswordMixin).
        super().validate_password_for_user(user, password_field_name, **kwargs)  # type: ignore[misc]


class Tick(forms.CheckboxInput):
    """A checkbox that hands its field what was sent: Django's own reads any value but
    "false" and "0" as ticked ("off" and "banana" saved a preference as on: an attacker's
    pass)."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:  # what was sent
        values = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
        return values if len(values) > 1 else (values[0] if values else None)


class TickField(forms.BooleanField):
    """A preference's checkbox: ticked ("on", as a browser sends it; "true" or "1") or not
    (nothing sent; "off", "false", "0" or empty). Anything else is refused."""

    widget = Tick
    TICKED, UNTICKED = {"on", "true", "1"}, {"", "off", "false", "0"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: object) -> bool:
        if value is None or value is False:
            return False
        if isinstance(value, str) and value.lower() in self.TICKED | self.UNTICKED:
            return value.lower() in self.TICKED
        raise ValidationError("Tick the box or leave it empty: it sends one value, “on”.")

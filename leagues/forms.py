"""The game entry form: finishing order as rows of names, a tie box, an optional seat.

A row's place is its position in the list unless it is marked tied with the row above, in
which case it shares that row's place (competition ranking: 1, 2, 2, 4). Blank rows are
ignored, so a phone shows four rows and "add a player" appends more.
"""

import re
import uuid

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .domain.csvformat import NAME_MAX_LENGTH, clean_text, has_control_characters
from .domain.ordinals import ordinal
from .domain.ranking import RankingError, validate_places
from .models import Game, League
from .services import (
    FinishLine,
    LeagueError,
    game_date_check,
    players_find,
    players_look_alike,
)

MAX_ROWS = 16
_PLAYER_KEY = re.compile(r"\Aplayer_([0-9]{1,3})\Z")  # ASCII digits: int("²") raises
DEFAULT_ROWS = 4


def place_label(n: int) -> str:
    """A row's label: "1st place" (each language writes its ordinals its own way)."""
    return pgettext_lazy("a finishing place", "%(ordinal)s place") % {"ordinal": ordinal(n)}


class GameEntryForm(forms.Form):
    stale_message = ""  # set when the form shows a game someone changed meanwhile

    played_on = forms.DateField(
        label=_("Played on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    notes = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
    # The version of the game the form shows (a correction), and a one-time token per blank
    # form (a new game): a stale correction or a second tap of "save" is then recognised.
    version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    entry_key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    add_new_players = forms.BooleanField(
        required=False,
        label=_("Add names I typed that are not players yet"),
        help_text=_("Leave this off to catch typos: an unknown name is then an error."),
    )
    look_alikes_ok = forms.BooleanField(
        required=False,
        label=_("The names marked as look-alikes are other people"),
        help_text=_(
            "A new name that reads like a player the store has (a letter from another "
            "alphabet, an invisible character) is an error until you tick this."
        ),
    )

    def __init__(self, *args, league: League, rows: int = DEFAULT_ROWS, **kwargs):
        super().__init__(*args, **kwargs)
        self.league = league
        if self.is_bound:
            # Keep every row the browser sent, even ones added with "add a player".
            sent = [int(match[1]) for key in self.data if (match := _PLAYER_KEY.match(key))]
            rows = max([rows, *(i + 1 for i in sent)])
        self.row_count = min(max(rows, 2), MAX_ROWS)
        for i in range(self.row_count):
            self.fields[f"player_{i}"] = forms.CharField(
                required=False,
                max_length=NAME_MAX_LENGTH,
                label=place_label(i + 1),
                widget=forms.TextInput(
                    attrs={"list": "player-names", "autocomplete": "off", "autocapitalize": "words"}
                ),
            )
            self.fields[f"tied_{i}"] = forms.BooleanField(
                required=False, label=_("tied with above")
            )
            self.fields[f"seat_{i}"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=MAX_ROWS,
                label=_("seat"),
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        self.finish: list[FinishLine] = []
        self.new_names: list[str] = []
        self.look_alikes: dict[str, str] = {}

    def rows(self):
        """The bound fields of each row, for the template."""
        return [
            {
                "index": i,
                "player": self[f"player_{i}"],
                "tied": self[f"tied_{i}"],
                "seat": self[f"seat_{i}"],
            }
            for i in range(self.row_count)
        ]

    def clean_played_on(self):
        try:
            return game_date_check(self.cleaned_data["played_on"])
        except LeagueError as error:
            raise forms.ValidationError(str(error), code=error.code) from None

    def clean(self):
        cleaned = super().clean()
        lines: list[tuple[int, str, bool, int | None]] = []
        for i in range(self.row_count):
            name = clean_text(cleaned.get(f"player_{i}") or "")
            if has_control_characters(name):
                self.add_error(f"player_{i}", _("The name contains control characters."))
                continue
            if name:
                lines.append((i, name, bool(cleaned.get(f"tied_{i}")), cleaned.get(f"seat_{i}")))
            elif cleaned.get(f"tied_{i}") or cleaned.get(f"seat_{i}"):
                self.add_error(f"player_{i}", _("Type a name, or clear this row."))
        if not lines:
            raise forms.ValidationError(_("Enter the players in their finishing order."))

        places: list[int] = []
        seen: dict[str, int] = {}
        seats: dict[int, int] = {}
        for position, (i, name, tied, seat) in enumerate(lines):
            if tied and position == 0:
                self.add_error(f"tied_{i}", _("The first player has nobody above to tie with."))
            places.append(places[-1] if tied and places else position + 1)
            if name.lower() in seen:
                self.add_error(
                    f"player_{i}", _("%(name)s is already in this game.") % {"name": name}
                )
            seen.setdefault(name.lower(), i)
            if seat is not None:
                if seat in seats:
                    self.add_error(
                        f"seat_{i}", _("Seat %(seat)s is taken by another player.") % {"seat": seat}
                    )
                seats.setdefault(seat, i)
        try:
            validate_places(places)
        except RankingError as error:
            self.add_error(None, str(error))

        known = players_find(
            organization=self.league.organization, names=[n for __, n, __, __ in lines]
        )
        self.new_names = [n for __, n, __, __ in lines if n.lower() not in known]
        if self.new_names and not cleaned.get("add_new_players"):
            for i, name, __, __ in lines:
                if name.lower() not in known:
                    self.add_error(
                        f"player_{i}",
                        _(
                            'No player "%(name)s" in %(store)s yet. Check the spelling, or '
                            'tick "Add names I typed" below.'
                        )
                        % {"name": name, "store": self.league.organization},
                    )
        self.look_alikes = players_look_alike(
            organization=self.league.organization, names=list(dict.fromkeys(self.new_names))
        )
        if self.look_alikes and not cleaned.get("look_alikes_ok"):
            for i, name, __, __ in lines:
                if name in self.look_alikes:
                    self.add_error(
                        f"player_{i}",
                        _(
                            '"%(name)s" reads like %(like)s, a player of %(store)s (a letter '
                            "from another alphabet, or a look-alike character). Check the "
                            'spelling, or tick "The names marked as look-alikes are other '
                            'people" below.'
                        )
                        % {
                            "name": name,
                            "like": self.look_alikes[name],
                            "store": self.league.organization,
                        },
                    )
        # Use the stored spelling of known players ("josh" is Josh).
        self.finish = [
            FinishLine(name=known[n.lower()].name if n.lower() in known else n, place=p, seat=s)
            for (__, n, __, s), p in zip(lines, places, strict=True)
        ]
        return cleaned

    @classmethod
    def for_game(cls, game: Game) -> "GameEntryForm":
        results = list(game.results.select_related("player").order_by("placement", "seat", "id"))
        initial = {"played_on": game.played_on, "notes": game.notes, "version": game.version}
        for i, result in enumerate(results):
            initial[f"player_{i}"] = result.player.name
            initial[f"tied_{i}"] = i > 0 and result.placement == results[i - 1].placement
            initial[f"seat_{i}"] = result.seat
        return cls(initial=initial, league=game.league, rows=max(len(results), DEFAULT_ROWS))

    @classmethod
    def blank(cls, league: League) -> "GameEntryForm":
        return cls(
            initial={"played_on": timezone.localdate(), "entry_key": uuid.uuid4().hex},
            league=league,
        )

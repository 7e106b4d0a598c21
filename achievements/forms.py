"""The organizers' forms: an achievement, the points besides the achievements, an award.
The pure domain checks the values and names the field; the form puts it there."""

import re

from django import forms
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from core.errors_http import form_add_error

from .domain.scoring import NAME_MAX, POINTS_MAX, POINTS_MIN, Per, Scoring
from .models import RULE_LABELS, Achievement


class AchievementForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=NAME_MAX,
        help_text=_('What players call it: "First blood".'),
    )
    description = forms.CharField(
        label=_("Description"),
        max_length=200,
        required=False,
        help_text=_("How it is earned, in a sentence (optional)."),
    )
    points = forms.IntegerField(
        label=_("Points"), min_value=POINTS_MIN, max_value=POINTS_MAX, initial=1
    )
    per = forms.ChoiceField(
        label=_("How often a player may earn it"),
        choices=[(p.value, capfirst(RULE_LABELS[p])) for p in Per],
        widget=forms.RadioSelect,
        initial=Per.GAME.value,
    )
    active = forms.BooleanField(
        label=_("Active (players may claim it)"), required=False, initial=True
    )

    def __init__(self, *args, achievement: Achievement | None = None, **kwargs):
        if achievement is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": achievement.name,
                "description": achievement.description,
                "points": achievement.points,
                "per": achievement.per,
                "active": achievement.active,
            }
        super().__init__(*args, **kwargs)
        if achievement is not None:
            self.fields["active"].help_text = _(
                "Untick to retire it: no longer claimed, what was earned stays."
            )

    def add_domain_error(self, error) -> None:
        form_add_error(self, error)


NUMBERS = re.compile(r"^\s*\d+(\s*,\s*\d+)*\s*$")


class ScoringForm(forms.Form):
    per_game = forms.IntegerField(
        label=_("Points for each game played"), min_value=0, max_value=100, initial=0
    )
    placings = forms.CharField(
        label=_("Points by placing"),
        required=False,
        help_text=_('For 1st, 2nd, ... separated by commas: "3, 2, 1". Empty: none.'),
    )

    def __init__(self, *args, scoring: Scoring | None = None, **kwargs):
        if scoring is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "per_game": scoring.per_game,
                "placings": ", ".join(map(str, scoring.placings)),
            }
        super().__init__(*args, **kwargs)

    def clean_placings(self) -> list[int]:
        text = self.cleaned_data.get("placings", "").strip()
        if not text:
            return []
        if not NUMBERS.match(text):
            raise forms.ValidationError(_('Whole numbers separated by commas, as "3, 2, 1".'))
        return [int(part) for part in text.split(",")]

    def clean(self):
        data = super().clean()
        if not self.errors:
            try:
                Scoring(per_game=data["per_game"], placings=tuple(data["placings"]))
            except Exception as error:  # AchievementError: its field and message
                self.add_domain_error(error)
        return data

    def add_domain_error(self, error) -> None:
        form_add_error(self, error)


class AwardForm(forms.Form):
    player = forms.ChoiceField(label=_("Player"))
    achievement = forms.ChoiceField(label=_("Achievement"))
    game = forms.ChoiceField(
        label=_("Game"),
        required=False,
        help_text=_("The game it was earned in. None: an award for the night below."),
    )
    night = forms.DateField(
        label=_("Night"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Only when no game is chosen."),
    )

    def __init__(self, *args, players, achievements, games, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", _("Choose a player"))] + [
            (str(p.pk), p.name) for p in players
        ]
        self.fields["achievement"].choices = [("", _("Choose an achievement"))] + [
            (str(a.pk), f"{a.name} ({a.points:+d}, {a.rule})") for a in achievements if a.active
        ]
        self.fields["game"].choices = [("", _("No game: a night"))] + [
            (
                str(g.pk),
                f"{date_format(g.played_on, 'GH_DAY_MONTH')}: "
                + ", ".join(r.player.name for r in g.results.all()),
            )
            for g in games
        ]

    def clean(self):
        data = super().clean()
        if not data.get("game") and not data.get("night") and not self.errors:
            self.add_error("night", _("Choose a game, or say which night."))
        return data

    def add_domain_error(self, error) -> None:
        form_add_error(self, error)

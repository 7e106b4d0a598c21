"""The organizers' season forms: a season, an event type's point table, the events that count.

A point table's placings are typed one row per line, as the published tables print them:
"4 = 14" pays 14 down to 4th place (from the row above's place + 1), "32 = 6 if more than 128
players" is a kicker. The table is checked by the pure domain (`PointTable`), whose refusal
names the field and the row; the form puts it beside that field.
"""

import re
from urllib.parse import urlsplit

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from seasons.domain.rules import PRESETS, TIEBREAKS, PlacingRow, PointTable, SeasonError

from .models import TIEBREAK_LABELS, EventType, Season

PRESET_LABELS = {
    "": _("Empty: I add the event types"),
    "store_points": _("Store points league (3 a win, 1 a draw, 1 for attending)"),
    "limitless": _("Limitless series (20 / 16 / 14 / 12, kickers above 128 and 300, best 10)"),
    "play_pokemon_league_challenge": _("Play! Pokémon League Challenge 2024 (15 / 12 / 10 ...)"),
    "penny_dreadful": _("Penny Dreadful (1 for entering, 1 a match win or bye)"),
}
TIEBREAK_CHOICES = [("", _("(none)"))] + [(name, TIEBREAK_LABELS[name]) for name in TIEBREAKS]
LINE = re.compile(
    r"^\s*(\d+)\s*[=:]\s*(\d+)\s*(?:(?:if\s+)?(?:more\s+than|>)\s*(\d+)(?:\s*players?)?)?\s*$",
    re.IGNORECASE,
)
MAX_ROWS = 30


def _domain_error(form: forms.Form, error: SeasonError, fields: dict[str, str]) -> None:
    """Put the domain's refusal beside its field (`placings[2].points` -> placings)."""
    name = (error.field or "").split("[")[0].split(".")[0]
    form.add_error(
        fields.get(name, name) if fields.get(name, name) in form.fields else None, error.message
    )


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    starts_on = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    tiebreak_1 = forms.ChoiceField(label=_("Tie-break 1"), choices=TIEBREAK_CHOICES, required=False)
    tiebreak_2 = forms.ChoiceField(label=_("Tie-break 2"), choices=TIEBREAK_CHOICES, required=False)
    tiebreak_3 = forms.ChoiceField(label=_("Tie-break 3"), choices=TIEBREAK_CHOICES, required=False)

    def __init__(self, *args, season: Season | None = None, **kwargs):
        if season is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": season.name,
                "starts_on": season.starts_on,
                "ends_on": season.ends_on,
                **{f"tiebreak_{i + 1}": name for i, name in enumerate(season.tiebreaks[:3])},
            }
        super().__init__(*args, **kwargs)
        for name in ("tiebreak_1", "tiebreak_2", "tiebreak_3"):
            self.fields[name].help_text = ""
        self.fields["tiebreak_1"].help_text = _(
            "Players equal on points are parted by these, in order; still equal, they share "
            "the rank."
        )

    def clean(self):
        data = super().clean()
        chosen = [data.get(f"tiebreak_{i}") for i in (1, 2, 3)]
        chosen = [c for c in chosen if c]
        if len(set(chosen)) != len(chosen):
            self.add_error("tiebreak_2", _("A tie-break rule is chosen twice."))
        data["tiebreaks"] = chosen
        start, end = data.get("starts_on"), data.get("ends_on")
        if start and end and end < start:
            self.add_error(
                "ends_on",
                _("The season ends (%(end)s) before it starts (%(start)s).")
                % {"end": end, "start": start},
            )
        return data

    def add_domain_error(self, error: SeasonError) -> None:
        _domain_error(self, error, {"tiebreaks": "tiebreak_1"})


class SeasonCreateForm(SeasonForm):
    preset = forms.ChoiceField(
        label=_("Start from"),
        choices=list(PRESET_LABELS.items()),
        required=False,
        widget=forms.RadioSelect,
        initial="store_points",
    )

    def clean_preset(self):
        preset = self.cleaned_data.get("preset") or ""
        if preset and preset not in PRESETS:
            raise forms.ValidationError(_("Choose one of the systems listed."))
        return preset


def placings_text(placings: list) -> str:
    lines = []
    for down_to, points, more_than in placings:
        line = f"{down_to} = {points}"
        if more_than is not None:
            line += f" if more than {more_than} players"
        lines.append(line)
    return "\n".join(lines)


class EventTypeForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=80, help_text=_("What the store calls these events.")
    )
    placings = forms.CharField(
        label=_("Points by placing"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        # Translators: the rows in quotes are what the organizer types, read as they are
        # ("if more than ... players" included): keep them in English.
        help_text=_(
            "One row per line, best place first, each as the lowest place it pays: "
            '"1 = 20", "2 = 16", "4 = 14" (3rd-4th), "32 = 6 if more than 128 players" '
            "(a kicker: paid only in events that big). Empty: no placing points."
        ),
    )
    best_finishes = forms.IntegerField(
        label=_("Best finishes that count"),
        required=False,
        min_value=1,
        max_value=500,
        help_text=_("Only a player's best this many finishes of this type count. Empty: all."),
    )
    entering = forms.IntegerField(
        label=_("Points for entering"), min_value=0, max_value=1000, initial=0
    )
    per_round = forms.IntegerField(
        label=_("Points per round played"), min_value=0, max_value=1000, initial=0
    )
    per_win = forms.IntegerField(label=_("Points per win"), min_value=0, max_value=1000, initial=0)
    per_draw = forms.IntegerField(
        label=_("Points per draw"), min_value=0, max_value=1000, initial=0
    )
    per_bye = forms.IntegerField(label=_("Points per bye"), min_value=0, max_value=1000, initial=0)

    def __init__(self, *args, event_type: EventType | None = None, **kwargs):
        if event_type is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": event_type.name,
                "placings": placings_text(event_type.placings),
                "best_finishes": event_type.best_finishes,
                **{
                    f: getattr(event_type, f)
                    for f in ("entering", "per_round", "per_win", "per_draw", "per_bye")
                },
            }
        super().__init__(*args, **kwargs)

    def clean_placings(self) -> list[PlacingRow]:
        rows = []
        lines = [
            line for line in self.cleaned_data.get("placings", "").splitlines() if line.strip()
        ]
        if len(lines) > MAX_ROWS:
            raise forms.ValidationError(_("At most %(max)s rows.") % {"max": MAX_ROWS})
        for number, line in enumerate(lines, start=1):
            match = LINE.match(line)
            if match is None:
                raise forms.ValidationError(
                    # Translators: the rows in quotes are typed as they are: keep them in English.
                    _(
                        'Line %(number)s ("%(line)s"): write it as "4 = 14", or '
                        '"32 = 6 if more than 128 players".'
                    )
                    % {"number": number, "line": line.strip()[:40]}
                )
            down_to, points, more_than = match.groups()
            rows.append(
                PlacingRow(int(down_to), int(points), int(more_than) if more_than else None)
            )
        return rows

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["table"] = PointTable(
                event_type=data["name"].strip(),
                placings=tuple(data["placings"]),
                best_finishes=data.get("best_finishes"),
                entering=data["entering"],
                per_round=data["per_round"],
                per_win=data["per_win"],
                per_draw=data["per_draw"],
                per_bye=data["per_bye"],
            )
        except SeasonError as error:
            self.add_domain_error(error)
        return data

    def add_domain_error(self, error: SeasonError) -> None:
        _domain_error(self, error, {"event_type": "name"})


class SeasonEventsForm(forms.Form):
    """One choice per event of the league in the season's dates: its type, or none."""

    def __init__(self, *args, season: Season, choices: list, **kwargs):
        super().__init__(*args, **kwargs)
        types = [("", _("Does not count"))] + [
            (str(t.pk), t.name) for t in season.event_types.all()
        ]
        self.events = []
        for event, type_id in choices:
            name = f"event_{event.pk}"
            self.fields[name] = forms.ChoiceField(
                label=f"{event.name} ({date_format(event.date, 'GH_DATE')})",
                choices=types,
                required=False,
                initial=str(type_id) if type_id else "",
            )
            self.events.append((event, name))

    def chosen(self) -> dict[int, int | None]:
        return {
            event.pk: int(self.cleaned_data[name]) if self.cleaned_data.get(name) else None
            for event, name in self.events
        }

    def add_domain_error(self, error: SeasonError) -> None:
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.message)


class SeriesForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=120,
        help_text=_('As players will read it: "North Coast Commander Cup".'),
    )

    def add_domain_error(self, error: SeasonError) -> None:
        self.add_error("name" if error.field == "name" else None, error.message)


SLUG = re.compile(r"[-a-zA-Z0-9_]+")


def store_slug(typed: str) -> str | None:
    """The store's slug in what a host typed for it: its address on Guildhall
    ("/stores/beta-cards/"), the whole URL copied from a browser (with or without
    "https://", any site's name, a query or a fragment), or the slug itself ("beta-cards");
    None when it is none of these."""
    text = (typed or "").strip()
    scheme = "://" in text
    path = urlsplit(text).path if scheme else text.split("?", 1)[0].split("#", 1)[0]
    parts = [part for part in path.split("/") if part]
    site_named = not scheme and not path.startswith("/") and len(parts) == 3  # "site/stores/x"
    if len(parts) in (2, 3) and parts[-2] == "stores" and (len(parts) == 2 or site_named):
        slug = parts[-1]
    elif len(parts) == 1 and not scheme and not path.startswith("/"):
        slug = parts[0]
    else:
        return None
    return slug.lower() if SLUG.fullmatch(slug) else None


class SeriesInviteForm(forms.Form):
    store = forms.CharField(
        label=_("Store to invite"),
        max_length=300,
        help_text=_(
            "Its address on Guildhall, as its page shows it (/stores/beta-cards/ or the "
            "whole link), or the last part of it (beta-cards). Its owner answers."
        ),
    )

    def clean_store(self) -> str:
        typed = self.cleaned_data["store"]
        slug = store_slug(typed)
        if slug is None:
            raise forms.ValidationError(
                _(
                    "“%(typed)s” is not a store's address: paste the address of the store's "
                    "page on Guildhall (/stores/beta-cards/) or type the part after /stores/ "
                    "(beta-cards)."
                )
                % {"typed": typed.strip()[:100]}
            )
        return slug

    def add_domain_error(self, error: SeasonError) -> None:
        self.add_error("store", error.message)


class SeriesLinkForm(forms.Form):
    """Two players of two stores of the series, the first with no account: one person."""

    player = forms.TypedChoiceField(label=_("This player (no account)"), coerce=int)
    same_as = forms.TypedChoiceField(label=_("is the same person as"), coerce=int)

    def __init__(self, *args, players: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = {p.pk: p for p in players}
        label = {p.pk: f"{p.name} ({p.organization.name})" for p in players}
        self.fields["player"].choices = [("", _("Choose"))] + [
            (p.pk, label[p.pk]) for p in players if p.user_id is None
        ]
        self.fields["same_as"].choices = [("", _("Choose"))] + [
            (p.pk, label[p.pk]) for p in players
        ]

    def add_domain_error(self, error: SeasonError) -> None:
        self.add_error(error.field if error.field in self.fields else None, error.message)


class QualifyForm(forms.Form):
    final = forms.TypedChoiceField(label=_("Final event"), coerce=int)
    top = forms.IntegerField(
        label=_("Invite the top"),
        min_value=1,
        max_value=512,
        initial=8,
        help_text=_("Players ranked this or better (a tie at the edge takes everyone tied)."),
    )

    def __init__(self, *args, finals, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["final"].choices = [("", _("Choose"))] + [
            (e.pk, f"{e.name} ({date_format(e.date, 'GH_DATE')})" if e.date else e.name)
            for e in finals
        ]

    def add_domain_error(self, error: SeasonError) -> None:
        self.add_error(error.field if error.field in self.fields else None, error.message)

"""The store's "New league" page: a league's name, game / format, visibility, dates and its
rating system with the system's parameters (the same form and checks as the league's Rating
settings page, `ratings.forms.RatingSettingsForm`).

Owners and organizers of the store only (leagues.store_access says why). The form carries a
one-time key, so pressing "Create" twice, or posting the page again, makes one league. The
league's format is its game (Commander, cEDH, Modern...): a league holds 1v1 games and pods
alike, and each of its events picks 1v1 or pods of 3-5 when it is created.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from core.errors_http import error_message, form_add_error
from leagues.models import League
from leagues.services import LeagueError, league_entry_key_new
from leagues.store_access import store_for_manager

from .domain.base import ParamError
from .domain.registry import DEFAULT_SYSTEM
from .forms import RatingSettingsForm
from .setup import league_create_rated

# Offered in the game / format box (any text is accepted).
GAME_SUGGESTIONS = (
    "Commander",
    "cEDH",
    "Modern",
    "Pioneer",
    "Standard",
    "Legacy",
    "Pauper",
    "Draft",
    "Sealed",
    "Lorcana",
    "One Piece",
    "Flesh and Blood",
)


class LeagueNewForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("League name"),
        max_length=League._meta.get_field("name").max_length,
        help_text=gettext_lazy("e.g. Friday Commander 2027"),
    )
    game_label = forms.CharField(
        label=gettext_lazy("Game / format"),
        required=False,
        max_length=League._meta.get_field("game_label").max_length,
        widget=forms.TextInput(attrs={"list": "game-suggestions"}),
        help_text=gettext_lazy(
            "1v1 games and pods of 3-5 both count in a league; each event picks one."
        ),
    )
    is_public = forms.TypedChoiceField(
        label=gettext_lazy("Who sees it"),
        choices=[
            ("1", gettext_lazy("Public: anyone sees its standings and games")),
            ("0", gettext_lazy("Private: the store's staff and players only")),
        ],
        coerce=lambda value: value == "1",
        initial="1",
        widget=forms.RadioSelect,
    )
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": gettext_lazy("Write the start date as YYYY-MM-DD.")},
    )
    ends_on = forms.DateField(
        label=gettext_lazy("Ends on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": gettext_lazy("Write the end date as YYYY-MM-DD.")},
    )
    key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest, org: str) -> HttpResponse:
    organization = store_for_manager(request, org)
    data = request.POST or None
    form = LeagueNewForm(data, initial={"key": league_entry_key_new()})
    rating = RatingSettingsForm(data, current_system=DEFAULT_SYSTEM, current_params={})
    if request.method == "POST" and form.is_valid() & rating.is_valid():
        values = form.cleaned_data
        try:
            league, created = league_create_rated(
                organization=organization,
                name=values["name"],
                game_label=values["game_label"],
                is_public=values["is_public"],
                starts_on=values["starts_on"],
                ends_on=values["ends_on"],
                system=rating.system.name,
                params=rating.system.params(),
                entry_key=values["key"] or None,
                by=request.user,
            )
        except ParamError as error:
            rating.add_error(None, error_message(error))
        except LeagueError as error:
            form_add_error(form, error)
        else:
            if created:
                text = _(
                    "%(league)s is created, rated with %(system)s. Add its games, or create "
                    "its first event from Events."
                )
                values = {"league": league.name, "system": rating.system.label}
                messages.success(request, text % values)
            else:
                text = _("%(league)s was already created by this form.")
                messages.info(request, text % {"league": league.name})
            return redirect(league)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "ratings/league_new.html",
        {
            "organization": organization,
            "form": form,
            "rating": rating,
            "suggestions": GAME_SUGGESTIONS,
        },
        status=status,
    )

from django import forms
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from leagues.services import LeagueError, player_name_clean

from .domain.byerules import BYE_RULES
from .domain.pods import pod_sizes
from .formats import FORMATS
from .forms_listing import (
    clean_listing,
    entry_fee_field,
    fee_currency_field,
    place_field,
    start_time_field,
)
from .models import Tournament
from .selectors.listing import store_currency
from .services.clock import MAX_EXTENSION
from .services.events import far_date_problem

# Short enough for a phone's select (pods.LAYOUT_LABELS say it in full); the help text adds
# an example.
LAYOUT_CHOICES = [
    ("threes", _("Pods of 4 and 3")),
    ("fives", _("Pods of 4 and 5")),
    ("byes", _("Pods of 4, and byes")),
]


def _layout_example(players: int = 13) -> str:
    """How the layouts cut a field, in LAYOUT_CHOICES order: "4+3+3+3, 5+4+4, or 4+4+4 and
    1 bye"."""
    cuts = []
    for layout, _label in LAYOUT_CHOICES:
        sizes, byes = pod_sizes(players, layout)
        pods = "+".join(map(str, sizes))
        if byes:
            pods = ngettext("%(pods)s and %(count)s bye", "%(pods)s and %(count)s byes", byes) % {
                "pods": pods,
                "count": byes,
            }
        cuts.append(pods)
    return gettext("for %(players)s players: %(cuts)s, or %(last)s") % {
        "players": players,
        "cuts": ", ".join(cuts[:-1]),
        "last": cuts[-1],
    }


def _layout_help() -> str:
    return gettext(
        "Pods only (1v1 events ignore it): where the players go who do not make a pod of 4; "
        "%(example)s."
    ) % {"example": _layout_example()}


class EventForm(forms.Form):
    league = forms.ModelChoiceField(
        label=_("League"),
        queryset=None,  # the store's leagues, set in __init__
        empty_label=None,
        required=False,  # the league whose page the form is on when left out
        help_text=_(
            "Its results are games of this league and move its ratings: a Modern night "
            "belongs in the Modern league, not the Commander one."
        ),
    )
    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    start_time = start_time_field()
    place = place_field()
    entry_fee = entry_fee_field()
    fee_currency = fee_currency_field()
    format = forms.ChoiceField(
        label=_("Format"),
        choices=Tournament.Format.choices,
        initial=Tournament.Format.ONE_V_ONE,
        required=False,  # 1v1 when left out
        help_text=_("1v1 matches (Magic, chess...) or pods of 3 to 5 players (Commander, cEDH)."),
    )
    points = forms.ChoiceField(
        label=_("Points"),
        choices=[
            ("", _("Usual: 3/1/0, pods 5/1/0")),
            ("magic", _("Magic: win 3, draw 1, loss 0, bye 3")),
            ("chess", _("Chess: 1, ½, 0, bye 1")),
            ("cedh", _("cEDH pods: win 5, draw 1, loss 0, bye 5")),
        ],
        required=False,
        help_text=_("In pods a win should be worth more than a four-way draw: cEDH scores 5/1/0."),
    )
    pod_layout = forms.ChoiceField(
        choices=LAYOUT_CHOICES,
        initial="threes",
        required=False,  # "threes" when left out
        label=_("Pod layout"),
        help_text=lazy(_layout_help, str)(),
    )
    tiebreakers = forms.ChoiceField(
        label=_("Tiebreakers"),
        choices=[
            ("", _("As the format and points")),
            ("magic", _("Magic: points, OMW%, GW%, OGW%")),
            ("chess", _("Chess: median Buchholz, Sonneborn-Berger, cumulative, wins")),
            # xgettext:no-python-format
            ("pods", _("Pods: points, OMW% (25% floor), seat sum, 4-pod win share")),
        ],
        required=False,
        help_text=_("Tiebreakers in order; by default those that go with the format and points."),
    )
    bye_rule = forms.ChoiceField(
        choices=[
            ("", _("As the tiebreakers: Magic none, chess FIDE 2023, pods MTRA 3.1")),
            *((key, gettext_lazy(label)) for key, label in BYE_RULES.items()),
        ],
        required=False,
        label=_("Byes in opponent tiebreakers"),
        # xgettext:no-python-format
        help_text=_("A bye has no opponent: the rule says what it adds to OMW% and Buchholz."),
    )
    swiss_rounds = forms.IntegerField(
        label=_("Swiss rounds"),
        required=False,
        min_value=1,
        max_value=20,
        help_text=_(
            "Leave empty for the usual number: ⌈log₂ players⌉ for 1v1 (8 players: 3, "
            "32 players: 5); for pods the structure suggested for the field (on the event page)."
        ),
    )
    top_cut = forms.TypedChoiceField(
        label=_("Top cut"),
        coerce=int,
        choices=Tournament._meta.get_field("top_cut").choices,
        initial=0,
        help_text=_(
            "Pods: top 4 plays one final pod; top 16 plays four semi-final pods, then a "
            "final pod. Top 8 is for 1v1."
        ),
    )
    first_round = forms.ChoiceField(label=_("First round"), choices=Tournament.FirstRound.choices)
    bye_pairing = forms.ChoiceField(
        choices=[
            ("", _("As the points: MTR for Magic, no rematch for chess")),
            *Tournament.ByePairing.choices,
        ],
        required=False,
        label=_("1v1 bye"),
        help_text=_(
            "With an odd number of players: the MTR gives the bye to the lowest-ranked "
            "player without one, even if the others must then replay a match; or move it up the "
            "standings to avoid that rematch."
        ),
    )
    cut_seats = forms.ChoiceField(
        choices=Tournament._meta.get_field("cut_seats").choices,
        initial="by_seed",
        required=False,  # by seed when left out
        label=_("Top-cut seats"),
        help_text=_(
            "Pods: who sits where at each cut pod. By seed (the best seed starts), the "
            "seeds choose in seed order (you record their choices on the console), or at random."
        ),
    )
    round_minutes = forms.IntegerField(
        label=_("Round minutes"), min_value=5, max_value=240, initial=50
    )
    self_report = forms.ChoiceField(
        choices=Tournament._meta.get_field("self_report").choices,
        initial="all",
        required=False,  # "all" when left out
        label=_("Results reported by players"),
        help_text=_(
            "Players report their table's result on their phone and the others at the "
            "table confirm it; you settle only disagreements, and your own entry always decides."
        ),
    )
    # Shown only once a date more than a year ahead was refused (as Add game's "new player?").
    confirm_date = forms.BooleanField(
        required=False, label=_("This date is right: create the event anyway")
    )

    def __init__(self, *args, league, **kwargs):
        """`league`: the league whose Events tab the form was opened from (the first choice);
        the store's other leagues are offered too."""
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = league.organization.leagues.order_by("name")
        self.fields["league"].initial = league.pk
        self.fields["date"].initial = timezone.localdate()
        self.fields["fee_currency"].initial = store_currency(league.organization)
        self.ask_date_confirmation = False

    def visible_fields_now(self):
        """The fields to show: the date confirmation only when it is being asked for."""
        return [f for f in self if f.name != "confirm_date" or self.ask_date_confirmation]

    def clean(self):
        data = clean_listing(self, super().clean())
        far = far_date_problem(data["date"]) if data.get("date") else None
        if far and not data.get("confirm_date"):
            self.ask_date_confirmation = True
            self.add_error("date", forms.ValidationError(far, code="far_date"))
        data["format"] = data.get("format") or Tournament.Format.ONE_V_ONE
        data["pod_layout"] = data.get("pod_layout") or "threes"
        data["cut_seats"] = data.get("cut_seats") or "by_seed"
        data["self_report"] = data.get("self_report") or "all"
        cuts = FORMATS[data["format"]].top_cuts if data["format"] in FORMATS else None
        if cuts is not None and data.get("top_cut") not in (None, *cuts):
            self.add_error(
                "top_cut", _("A pod event cuts to the top 4 (one final pod) or the top 16.")
            )
        return data


class RegisterForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label=_("Player"),
        widget=forms.TextInput(attrs={"list": "player-names", "autocomplete": "off"}),
    )
    # Shown once a name turned out to be new: ticking it creates the store's player.
    new_player = forms.BooleanField(required=False, label=_("Yes, add them as a new player"))
    ask_new_player = False  # set by the view when the name is not a player yet
    # Shown once a new name turned out to read like a player the store has.
    look_alike_ok = forms.BooleanField(
        required=False, label=_("Yes, they are someone else: add the look-alike name")
    )
    ask_look_alike = False

    def clean_name(self):
        # The store's rule for a player's name (not blank, no control characters), as a
        # message on the field rather than an error from the service.
        try:
            return player_name_clean(self.cleaned_data["name"])
        except LeagueError as error:
            raise forms.ValidationError(str(error), code=error.code) from None


class ExtensionForm(forms.Form):
    """A judge's time extension: the table's number in the round and its minutes in all (0
    takes it away), as whole numbers; the service checks the rest (the table, the range). A
    refused form comes back with what the judge typed. The console draws the two inputs
    itself: Django's widget templates added about a tenth to a 256-pod console."""

    max_minutes = MAX_EXTENSION  # the console's input

    table = forms.IntegerField(
        label=_("Table"),
    )
    minutes = forms.IntegerField(
        label=_("Minutes"),
    )

    def __init__(self, *args, noun: str = "table", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].error_messages.update(
            {
                k: gettext("Give the pod's number.")
                if noun == "pod"
                else gettext("Give the table's number.")
                for k in ("required", "invalid")
            }
        )
        whole = gettext("Give the extension as a whole number of minutes (0 takes it away).")
        self.fields["minutes"].error_messages.update({"required": whole, "invalid": whole})


class RegistrationSettingsForm(forms.Form):
    """The TO's online registration settings (services.registration_settings_set checks them
    again and says why)."""

    open = forms.BooleanField(required=False, label=_("Players may register online"))
    cap = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=4096,
        label=_("Seats"),
        help_text=_("Later players join the waitlist. Empty: no cap."),
    )
    deadline = forms.DateTimeField(
        label=_("Deadline"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("Online registration closes then. Empty: at round 1."),
    )
    note = forms.CharField(
        label=_("Note"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown to players: the fee, the time, the format."),
    )


class DeckForm(forms.Form):
    """A deck for an entry (services.entry_deck_set checks it again and says why)."""

    name = forms.CharField(
        required=False,
        max_length=120,
        label=_("Deck"),
        help_text=_("For Commander: the commander, or both partners (“Tymna / Kraum”)."),
        widget=forms.TextInput(attrs={"list": "deck-names", "autocomplete": "off"}),
    )
    url = forms.CharField(
        required=False,
        max_length=500,
        label=_("Decklist link"),
        help_text=_("Moxfield, Archidekt… (optional)."),
        widget=forms.URLInput(attrs={"inputmode": "url"}),
    )
    text = forms.CharField(
        required=False,
        max_length=10_000,
        label=_("Or paste the list"),
        widget=forms.Textarea(attrs={"rows": 6}),
    )


class CommanderDeckForm(forms.Form):
    """A Commander deck with card data loaded: the commander, and a partner or Background,
    chosen from the legal commanders (suggested as one types; a plain field without script).
    services.entry_deck_set checks them against the card data and says why."""

    commander = forms.CharField(
        required=False,
        max_length=120,
        label=pgettext_lazy("the commander card of a deck", "Commander"),
        help_text=_("Start typing: legal commanders are suggested."),
        widget=forms.TextInput(attrs={"list": "commander-names", "autocomplete": "off"}),
    )
    partner = forms.CharField(
        required=False,
        max_length=120,
        label=_("Partner or Background (optional)"),
        help_text=_("Only when your commander has Partner, Friends forever, Choose a Background…"),
        widget=forms.TextInput(attrs={"list": "partner-names", "autocomplete": "off"}),
    )
    url = DeckForm.base_fields["url"]
    text = DeckForm.base_fields["text"]

    def clean(self):
        data = super().clean()
        names = [data.get("commander", "").strip(), data.get("partner", "").strip()]
        if names[1] and not names[0]:
            self.add_error("commander", _("Name the commander first, then its partner."))
        data["name"] = " / ".join(name for name in names if name)
        return data


class DeckSettingsForm(forms.Form):
    deadline = forms.DateTimeField(
        required=False,
        label=_("Decks due by"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("Players name their deck until then. Empty: any time before the event ends."),
    )
    visibility = forms.ChoiceField(
        choices=Tournament.DeckVisibility.choices, label=_("Decks are public")
    )
    decklist_format = forms.ChoiceField(
        required=False,
        choices=[("", _("Not checked")), *Tournament.DecklistFormat.choices],
        label=_("Check pasted lists in"),
        help_text=_("Needs card data (manage.py load_cards). Each player sees what is wrong."),
    )
    decklist_required = forms.BooleanField(
        required=False,
        label=_("Require a legal list by the deadline"),
        help_text=_("Entries without one are listed for you below."),
    )

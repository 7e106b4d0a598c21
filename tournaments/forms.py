from django import forms
from django.utils import timezone

from .models import Tournament


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    points = forms.ChoiceField(
        choices=[
            ("magic", "Magic: win 3, draw 1, loss 0, bye 3"),
            ("chess", "Chess: 1, ½, 0, bye 1"),
        ],
        initial="magic",
    )
    tiebreakers = forms.ChoiceField(
        choices=[
            ("", "As the points"),
            ("magic", "Magic: points, OMW%, GW%, OGW%"),
            ("chess", "Chess: median Buchholz, Sonneborn-Berger, cumulative, wins"),
        ],
        required=False,
        help_text="Tiebreakers in order; by default those that go with the points.",
    )
    swiss_rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=20,
        help_text="Leave empty for ⌈log₂ players⌉ (8 players: 3, 32 players: 5).",
    )
    top_cut = forms.TypedChoiceField(
        coerce=int, choices=Tournament._meta.get_field("top_cut").choices, initial=0
    )
    first_round = forms.ChoiceField(choices=Tournament.FirstRound.choices)
    round_minutes = forms.IntegerField(min_value=5, max_value=240, initial=50)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()


class RegisterForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label="Player",
        widget=forms.TextInput(attrs={"list": "player-names", "autocomplete": "off"}),
    )


# What each result button means for a 1v1 table: (winning seat or None for a draw, games).
RESULTS = {
    "2-0": (1, (2, 0)),
    "2-1": (1, (2, 1)),
    "1-1": (None, (1, 1)),
    "1-2": (2, (1, 2)),
    "0-2": (2, (0, 2)),
    "draw": (None, None),
}

"""The fields that make an event findable (start time, place, fee), for the event's creation
form and its "Time, place and fee" form, and the weekly copy's form. Each bad value gets a
message on its own field; the services check the same rules again (services.listing_check).
"""

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from .domain.listing import MAX_FEE, fee_problem
from .services.events import MAX_PLACE, far_date_problem
from .services.series import MAX_WEEKS

TIME_MESSAGE = _("Give the start time as HH:MM, e.g. 19:00.")
FEE_MESSAGE = _("Give the fee as an amount, e.g. 10 or 7.50; leave it empty for a free event.")


def _filled(template: str, **params) -> str:
    return gettext(template) % params


# A message with values, written at import time and translated when shown.
filled = lazy(_filled, str)


def start_time_field() -> forms.TimeField:
    return forms.TimeField(
        required=False,
        label=_("Start time"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        input_formats=["%H:%M", "%H:%M:%S", "%H.%M"],
        error_messages={"invalid": TIME_MESSAGE},
        help_text=_("When round 1 is meant to start, the store's time. Empty: not announced."),
    )


def place_field() -> forms.CharField:
    return forms.CharField(
        required=False,
        max_length=MAX_PLACE,
        label=_("Place"),
        help_text=_("Empty: the store. Or a note: “back room”, another address."),
        error_messages={
            "max_length": filled(
                gettext_noop("The place is at most %(most)s characters."), most=MAX_PLACE
            )
        },
    )


def entry_fee_field() -> forms.DecimalField:
    return forms.DecimalField(
        required=False,
        min_value=0,
        max_value=MAX_FEE,
        max_digits=7,
        decimal_places=2,
        label=_("Entry fee"),
        help_text=_("Empty or 0: free."),
        widget=forms.NumberInput(attrs={"step": "0.01", "min": "0", "inputmode": "decimal"}),
        error_messages={
            "invalid": FEE_MESSAGE,
            "min_value": _("A fee is not negative; leave it empty (or 0) for a free event."),
            "max_value": filled(gettext_noop("A fee is at most %(most)s."), most=MAX_FEE),
            "max_digits": FEE_MESSAGE,
            "max_decimal_places": _("A fee has at most two digits after the point, e.g. 7.50."),
            "max_whole_digits": filled(gettext_noop("A fee is at most %(most)s."), most=MAX_FEE),
        },
    )


def fee_currency_field() -> forms.CharField:
    return forms.CharField(
        required=False,
        max_length=3,
        label=_("Currency"),
        help_text=_("Three letters: USD, EUR, GBP, CAD..."),
        widget=forms.TextInput(attrs={"size": 4, "autocapitalize": "characters"}),
        error_messages={"max_length": _("Give the currency as three letters: USD, EUR, GBP.")},
    )


def clean_listing(form: forms.Form, data: dict) -> dict:
    """The fee's currency in capitals, checked with the fee (a message on the field)."""
    data["fee_currency"] = (data.get("fee_currency") or "").strip().upper()
    data["place"] = (data.get("place") or "").strip()
    if "entry_fee" in data:  # a fee the field refused has its own message already
        problem = fee_problem(data["entry_fee"], data["fee_currency"], gettext)
        if problem:
            form.add_error(problem[0], problem[1])
    return data


class ListingForm(forms.Form):
    """When, where and for how much: the TO's edit of an event's listing."""

    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "invalid": _("Give the date as YYYY-MM-DD."),
            "required": _("Give the date."),
        },
        help_text=_("Moves only before round 1."),
    )
    start_time = start_time_field()
    place = place_field()
    entry_fee = entry_fee_field()
    fee_currency = fee_currency_field()
    confirm_date = forms.BooleanField(required=False, label=_("This date is right: save it anyway"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ask_date_confirmation = False

    def visible_fields_now(self):
        return [f for f in self if f.name != "confirm_date" or self.ask_date_confirmation]

    def clean(self):
        data = clean_listing(self, super().clean())
        far = far_date_problem(data["date"]) if data.get("date") else None
        if far and not data.get("confirm_date") and self.initial.get("date") != data["date"]:
            self.ask_date_confirmation = True
            self.add_error("date", forms.ValidationError(far, code="far_date"))
        return data


class CopyForm(forms.Form):
    """How many weeks ahead to repeat the event."""

    weeks = forms.IntegerField(
        min_value=1,
        max_value=MAX_WEEKS,
        initial=1,
        label=_("For how many weeks"),
        help_text=filled(
            gettext_noop("1 makes next week's event; up to %(most)s."), most=MAX_WEEKS
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "required": filled(
                gettext_noop("Give a number of weeks from 1 to %(most)s."), most=MAX_WEEKS
            ),
            "invalid": filled(
                gettext_noop("Give a number of weeks from 1 to %(most)s."), most=MAX_WEEKS
            ),
            "min_value": filled(
                gettext_noop("Give a number of weeks from 1 to %(most)s."), most=MAX_WEEKS
            ),
            "max_value": filled(gettext_noop("At most %(most)s weeks at a time."), most=MAX_WEEKS),
        },
    )

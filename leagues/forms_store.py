"""The forms of the store's setup pages: profile, invitation. They parse the input; the
services (leagues.services.store) decide what is acceptable and say why."""

from django import forms
from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .domain.images import ACCEPTED, LOGO_MAX_BYTES
from .models import Organization, Role
from .services.store import ADDRESS_MAX, time_zones


def _logo_help() -> str:
    return gettext("%(types)s, at most %(size)s KB.") % {
        "types": ACCEPTED,
        "size": LOGO_MAX_BYTES // 1024,
    }


class StoreProfileForm(forms.Form):
    name = forms.CharField(
        label=_("Store name"), max_length=Organization._meta.get_field("name").max_length
    )
    short_name = forms.CharField(
        label=_("Short name"),
        required=False,
        max_length=60,  # longer than the field: the service says what is too long, and why
        help_text=_(
            "Optional, at most 20 characters: what a phone's header shows when the store's "
            "name is too long for two lines there. Empty: the whole name."
        ),
    )
    address = forms.CharField(
        label=_("Address"),
        required=False,
        max_length=ADDRESS_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown to players: where to come on event nights."),
    )
    # A text field drawn as a list: the service says which zone is unknown, and why.
    time_zone = forms.CharField(
        label=_("Time zone"),
        required=False,
        max_length=64,
        widget=forms.Select,
        help_text=_("The store's local time, for its event times."),
    )
    logo = forms.FileField(
        label=_("Logo"),
        required=False,
        help_text=lazy(_logo_help, str)(),
        widget=forms.ClearableFileInput(
            attrs={"accept": "image/png,image/jpeg,image/gif,image/webp"}
        ),
    )
    logo_remove = forms.BooleanField(label=_("Remove the logo"), required=False)
    accent = forms.CharField(
        label=_("Accent colour"),
        required=False,
        max_length=20,
        widget=forms.TextInput(attrs={"placeholder": "#1f5f7a", "autocomplete": "off"}),
        help_text=_(
            "Your store's colour for its header, buttons and links, its events and the "
            "projector: # and six hex digits. Any colour: Guildhall picks the text on it and "
            "the shades of it that stay readable. Empty: Guildhall's own."
        ),
    )

    # A text field drawn as a list: the service says which code is unknown, and why.
    language = forms.CharField(
        label=_("Language of the store's pages"),
        required=False,
        max_length=20,
        widget=forms.Select,
        help_text=_(
            "Visitors who chose no language read the store's pages in it, and mails to "
            "accounts that chose none are written in it."
        ),
    )

    def __init__(self, *args, site_zone: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].widget.choices = [
            ("", _("The site's (%(zone)s)") % {"zone": site_zone})
        ] + [(name, name.replace("_", " ")) for name in time_zones()]
        # Each language by its own name ("Deutsch"), as a visitor looks for theirs; '' is
        # English, the site's own.
        self.fields["language"].widget.choices = [("", "English")] + [
            (code, name) for code, name in settings.LANGUAGES if code != "en"
        ]


class StaffInviteForm(forms.Form):
    email = forms.CharField(
        label=_("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )
    role = forms.ChoiceField(
        label=_("Role"),
        choices=Role.choices,
        initial=Role.JUDGE,
        error_messages={"invalid_choice": _("Choose a role: Owner, Organizer or Judge / TO.")},
    )


class StoreNewForm(forms.Form):
    """A new store, by the site's administrators: its name, its address and its first owner."""

    name = forms.CharField(
        label=_("Store name"),
        max_length=Organization._meta.get_field("name").max_length,
        error_messages={"required": _("Give the store a name.")},
    )
    slug = forms.CharField(
        label=_("Address on Guildhall"),
        required=False,
        max_length=80,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("goblin-forge")}),
        help_text=_(
            "Its public page is /stores/<this>/. Leave it empty and it is made from the "
            "name (Goblin Forge Games: goblin-forge-games)."
        ),
    )
    owner_email = forms.CharField(
        label=_("Owner's e-mail address"),
        required=False,
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
        help_text=_(
            "They get a link that works once, for a week: they sign up or log in, and "
            "become the store's owner. Empty: invite them later from the store's page."
        ),
    )

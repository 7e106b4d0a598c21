from django import forms
from django.utils.translation import gettext_lazy as _

from .domain.webhooks import MAX_LENGTH
from .models import NotificationSettings


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = NotificationSettings
        fields = ["email_round_paired", "email_waitlist_promoted"]


class WebhookForm(forms.Form):
    url = forms.CharField(
        label=_("Webhook address"),
        required=False,
        max_length=MAX_LENGTH,
        help_text=_(
            "From your chat service, starting with https:// (Discord: "
            "https://discord.com/api/webhooks/...). Empty turns the messages off."
        ),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "inputmode": "url"}
        ),
    )

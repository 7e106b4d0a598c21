"""The CSV upload form: size and text checks before anything is stored."""

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from .domain.csvformat import REPEATS_GUILDMASTER, REPEATS_REFUSE, UndecodableFile, decode_upload


class ImportUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Guildmaster CSV file"),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
        error_messages={
            "required": _("Choose a CSV file to upload."),
            "empty": _("The file is empty."),
            "invalid": _("No file was received; choose the file again."),
        },
    )

    repeated_names = forms.ChoiceField(
        label=_("A row that names a player twice"),
        choices=[
            (REPEATS_REFUSE, _("Refuse the row (a player cannot finish twice)")),
            (REPEATS_GUILDMASTER, _("Rate it as Guildmaster does")),
        ],
        initial=REPEATS_REFUSE,
        required=False,
        help_text=_(
            "Guildmaster rates such a row as if each column were a separate seat, and "
            "the player keeps the rating of their last seat. Choose this to reproduce "
            "Guildmaster's rankings for a file it has scored."
        ),
        error_messages={"invalid_choice": _("Choose how to read a row that names a player twice.")},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.text = ""
        self.decode_warning: str | None = None

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = settings.GUILDHALL_MAX_IMPORT_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                _(
                    "The file is %(size)s; the largest file you can import is %(limit)s. "
                    "Split it into smaller files."
                )
                % {"size": filesizeformat(upload.size), "limit": filesizeformat(limit)},
                code="too_large",
            )
        try:
            self.text, self.decode_warning = decode_upload(upload.read())
        except UndecodableFile as error:
            raise forms.ValidationError(
                _("%(problem)s Save it from your spreadsheet as CSV (UTF-8) and upload that.")
                % {"problem": error},
                code="undecodable",
            ) from None
        return upload

    def clean_repeated_names(self) -> str:
        return self.cleaned_data["repeated_names"] or REPEATS_REFUSE

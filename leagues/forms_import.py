"""The CSV upload form: size and text checks before anything is stored."""

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat

from .domain.csvformat import REPEATS_GUILDMASTER, REPEATS_REFUSE, UndecodableFile, decode_upload


class ImportUploadForm(forms.Form):
    file = forms.FileField(
        label="Guildmaster CSV file",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
        error_messages={
            "required": "Choose a CSV file to upload.",
            "empty": "The file is empty.",
            "invalid": "No file was received; choose the file again.",
        },
    )

    repeated_names = forms.ChoiceField(
        label="A row that names a player twice",
        choices=[
            (REPEATS_REFUSE, "Refuse the row (a player cannot finish twice)"),
            (REPEATS_GUILDMASTER, "Rate it as Guildmaster does"),
        ],
        initial=REPEATS_REFUSE,
        required=False,
        help_text="Guildmaster rates such a row as if each column were a separate seat, and "
        "the player keeps the rating of their last seat. Choose this to reproduce "
        "Guildmaster's rankings for a file it has scored.",
        error_messages={"invalid_choice": "Choose how to read a row that names a player twice."},
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
                f"The file is {filesizeformat(upload.size)}; the largest file you can import "
                f"is {filesizeformat(limit)}. Split it into smaller files.",
                code="too_large",
            )
        try:
            self.text, self.decode_warning = decode_upload(upload.read())
        except UndecodableFile as error:
            raise forms.ValidationError(
                f"{error} Save it from your spreadsheet as CSV (UTF-8) and upload that.",
                code="undecodable",
            ) from None
        return upload

    def clean_repeated_names(self) -> str:
        return self.cleaned_data["repeated_names"] or REPEATS_REFUSE

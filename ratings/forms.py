"""The rating settings form: pick a system, then its parameters, generated from PARAMS."""

import json

from django import forms
from django.utils.translation import gettext, gettext_lazy

from core.jsonbody import BadJson, json_body

from .domain.base import ParamError
from .domain.registry import SYSTEMS, make_system


def _field(param) -> forms.Field:
    # The labels are marked in the domain (N_) and translated here, as the form is built.
    common = {"label": gettext(param.label), "help_text": gettext(param.help), "required": False}
    if param.kind == "int":
        return forms.IntegerField(min_value=param.min, max_value=param.max, **common)
    if param.kind == "float":
        return forms.FloatField(min_value=param.min, max_value=param.max, **common)
    if param.kind == "bool":
        return forms.BooleanField(**common)
    if param.kind == "choice":
        return forms.ChoiceField(choices=[(c, c) for c in param.choices], **common)
    # "bands" (and anything structured): JSON in a small text box.
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), **common)


class RatingSettingsForm(forms.Form):
    """Fields named `<system>__<param>`, so every system's values survive switching back."""

    system = forms.ChoiceField(label=gettext_lazy("Rating system"))

    def __init__(self, *args, current_system: str, current_params: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = [(name, cls.label) for name, cls in SYSTEMS.items()]
        self.fields["system"].initial = current_system
        self.groups = []
        for name, cls in SYSTEMS.items():
            defaults = make_system(name).params()
            values = current_params if name == current_system else defaults
            names = []
            for param in cls.PARAMS:
                key = f"{name}__{param.name}"
                field = _field(param)
                value = values.get(param.name, defaults.get(param.name))
                field.initial = json.dumps(value) if param.kind == "bands" else value
                self.fields[key] = field
                names.append(key)
            self.groups.append(
                {"name": name, "label": cls.label, "fields": [self[k] for k in names]}
            )

    def clean(self):
        cleaned = super().clean()
        name = cleaned.get("system")
        if not name:
            return cleaned
        params = {}
        for param in SYSTEMS[name].PARAMS:
            key = f"{name}__{param.name}"
            value = cleaned.get(key)
            if value is None or value == "":
                continue
            if param.kind == "bands":
                try:
                    value = json_body(value)
                # Not JSON, a number of thousands of digits, or nested too deeply: the same
                # message on the field.
                except BadJson:
                    self.add_error(
                        key, gettext("Write the bands as JSON, e.g. [[1200, 40], [null, 16]].")
                    )
                    continue
            params[param.name] = value
        try:
            self.system = make_system(name, params)
        except ParamError as error:
            key = f"{name}__{error.field}"
            self.add_error(key if key in self.fields else None, error.message)
        return cleaned

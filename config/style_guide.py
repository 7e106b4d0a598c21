"""The style guide (issue 33): one page that draws every component of the design system with
sample content, for whoever builds a page (docs/design.md says when to use which). It exists
only in development (settings.STYLE_GUIDE, on with DEBUG): config/urls.py adds its address
then, and the view answers 404 otherwise. It reads no data and writes none."""

from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _


class SampleForm(forms.Form):
    """A form with a bad answer in each field, to show the error summary and the field errors."""

    name = forms.CharField(label=_("Player name"), help_text=_("As the store knows you."))
    email = forms.EmailField(label=_("E-mail address"))
    format = forms.ChoiceField(
        label=_("Format"), choices=[("1v1", _("1 v 1")), ("pods", _("Commander pods"))]
    )


def style_guide(request: HttpRequest) -> HttpResponse:
    if not settings.STYLE_GUIDE:
        raise Http404("The style guide is for development only.")
    form = SampleForm(data={"name": "", "email": "not-an-address", "format": "1v1"})
    form.is_valid()
    return render(
        request,
        "style_guide.html",
        {
            "form": form,
            "rows": [
                (1, "Ann Archer", 1555, "+18", 5, 3),
                (2, "Persephone-Evangeline Montgomery-Worthington", 1519, "+19", 1, 1),
                (3, "Bob Baker", 1518, "\u221221", 5, 2),
            ],
        },
    )

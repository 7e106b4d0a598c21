"""The language switch and the scripts' catalogue (issue 45; core/languages.py).

`set_language` is Django's (a POST of `language` and `next`, no script needed: the footer's
form), which sets the language cookie; a logged-in account's choice is also kept on the
account, so its mails follow it. `js_catalog` is Django's JavaScriptCatalog for one language
named in the address (`/jsi18n/de.js`), so that a page loads the catalogue of the language it
is drawn in and the service worker keeps that one for the offline round, whatever the
browser's cookie says later.
"""

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_POST
from django.views.i18n import JavaScriptCatalog
from django.views.i18n import set_language as django_set_language

from . import languages

_catalog = JavaScriptCatalog.as_view(domain="djangojs")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    response = django_set_language(request)
    languages.choose(request, request.POST.get("language", ""))
    return response


def js_catalog(request: HttpRequest, lang: str) -> HttpResponse:
    code = languages.supported(lang)
    if code is None:
        raise Http404("No such language")
    with translation.override(code):
        response = _catalog(request)
    # The address names the language; `?v=` names the release (templates/base.html).
    patch_cache_control(response, public=True, max_age=86400)
    return response

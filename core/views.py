"""The language switch and the scripts' catalogue (issue 45; core/languages.py).

`set_language` is Django's (a POST of `language` and `next`, no script needed: the footer's
form), which sets the language cookie; a logged-in account's choice is also kept on the
account, so its mails follow it. `js_catalog` is Django's JavaScriptCatalog for one language
named in the address (`/jsi18n/de.js`), so that a page loads the catalogue of the language it
is drawn in and the service worker keeps that one for the offline round, whatever the
browser's cookie says later. It also carries the Python catalogue's translations of the
messages upper apps declare a script writes (`hooks.script_words`: the pure domain's sentences
that the phone's own pairing raises), so that those are written in the page's language offline
too.
"""

from functools import lru_cache

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.utils.translation.trans_real import translation as django_translation
from django.views.decorators.http import require_POST
from django.views.i18n import JavaScriptCatalog
from django.views.i18n import set_language as django_set_language

from . import hooks, languages


class ScriptCatalog(JavaScriptCatalog):
    """The scripts' own words (djangojs), and the Python catalogue's of `hooks.script_words`
    where the scripts' have none."""

    def get_catalog(self):
        catalog = super().get_catalog()
        for key, text in python_words(get_language(), self._num_plurals).items():
            catalog.setdefault(key, text)
        return catalog


@lru_cache(maxsize=16)
def python_words(language: str, plurals: int) -> dict:
    """`hooks.script_words`' translations in `language`, as Django's script catalogue keys
    them: a msgid (or 'context\x04msgid') -> its text, a plural's singular -> its `plurals`
    forms. A message without a translation is left out (the script writes its English)."""
    found = django_translation(language)._catalog  # Django's own, loaded once per language
    words = {}
    for word in hooks.script_words():
        if isinstance(word, tuple):
            forms = [found.get((word[0], n)) for n in range(plurals)]
            if all(forms):
                words[word[0]] = forms
        elif text := found.get(word):
            words[word] = text
    return words


_catalog = ScriptCatalog.as_view()


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

"""The footer's language switch and a script's catalogue (core/languages.py, core/views.py).

`{% language_switch %}` draws a form that needs no script: a select of the site's languages,
each named in itself ("Deutsch", "日本語"), and a button; Django's `set_language` sets the
cookie (and the account's choice) and sends the visitor back to the page. `{% js_catalog %}`
loads the scripts' words before a page's scripts: the catalogue of the page's own language,
with the release in its address so that a deploy's new strings are fetched and an unchanged
one is kept by the browser and the offline round's service worker, then the one script every
other reads them through (static/guildhall/i18n.js: English when the catalogue is missing).
"""

from functools import lru_cache

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from core.pagecache import release
from core.templatetags.links import cached_url

register = template.Library()


@lru_cache(maxsize=32)
def _switch_body(current: str, languages: tuple) -> SafeString:
    """The switch's label, select and button in `current` (the active language): the same on
    every page, so drawn once per language (a template drew it in 0.2 ms, a page's fifth)."""
    options = format_html_join(
        "",
        '<option value="{}" lang="{}"{}>{}</option>',
        (
            (code, code, mark_safe(" selected") if code == current else "", name)
            for code, name in languages
        ),
    )
    return format_html(
        '<label for="language-switch">{}</label>\n  <select id="language-switch" name="language">'
        '\n    {}\n  </select>\n  <button type="submit" class="small">{}</button>',
        gettext("Language"),
        options,
        gettext("Change"),
    )


@register.simple_tag(takes_context=True)
def language_switch(context) -> SafeString:
    request = context.get("request")
    return format_html(
        '<form class="language-switch" method="post" action="{}">\n'
        '  <input type="hidden" name="csrfmiddlewaretoken" value="{}">\n'
        '  <input type="hidden" name="next" value="{}">\n  {}\n</form>',
        cached_url("set_language"),
        context.get("csrf_token") or "",
        request.get_full_path() if request is not None else "/",
        _switch_body(get_language(), tuple(settings.LANGUAGES)),
    )


@register.simple_tag
def js_catalog_url() -> str:
    """The address of the active language's catalogue of the scripts' strings."""
    return f"{cached_url('js_catalog', get_language())}?v={release()}"


@register.simple_tag
def js_catalog() -> str:
    """The scripts' words, before the page's scripts: the active language's catalogue, then
    `window.GuildhallI18n` (guildhall/i18n.js), both deferred (in this order, before any later
    deferred or module script). A page writes it once, before its first script that says
    something."""
    return format_html(
        '<script src="{}" defer></script><script src="{}" defer></script>',
        js_catalog_url(),
        static("guildhall/i18n.js"),
    )

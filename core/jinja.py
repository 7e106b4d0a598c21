"""The Jinja2 environment of the site's hot fragments (settings.TEMPLATES' second engine).

The rows drawn by the hundred (the console's cards and player list, the pairings, the standings,
the game cards) are template files in `<app>/jinja2/`, drawn by Jinja2 rather than by Django's
template language, which was 15-34 times an f-string's cost for 256 rows (bench/pages.py).
Autoescape is on, with Django's escape: every value printed goes through the standard
library's `html.escape` (what `django.utils.html.escape` is, behind its lazy-string wrapper),
unless it has `__html__` (a partial a Django template drew, a `Markup`), as Django's
autoescape does. MarkupSafe's own `escape` builds a `Markup` object per value, a microsecond
each, most of a row's cost; and it spells a quote `&#39;` and `&#34;` where Django writes
`&#x27;` and `&quot;`. With Django's, a page reads byte for byte the same whichever engine
drew a part of it. The code generator is Jinja2's own with its output hook changed, the way
Jinja2's `nativetypes` changes it.

Globals: `url(name, *args)` (Django's `reverse`), `static(path)`, and `zone_name()` and
`zone_label()` of the request's time zone (core.zones). Filters: `date(value,
format)` (Django's `date` format characters) and `floatformat(value, arg)` (Django's, which
localises), both remembered per value and language since a page repeats a few values many
times; `join_text(values, separator)`, plain strings joined and then escaped as one value
(Jinja2's `join` looks at every item for `__html__`: three times the cost, per finder row).
"""

import html
from datetime import datetime
from functools import lru_cache

from django.template.defaultfilters import floatformat as django_floatformat
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext, ngettext, pgettext
from jinja2 import Environment, nodes
from jinja2.compiler import CodeGenerator

from .zones import zone_label, zone_name


def url(name: str, *args) -> str:
    """The address of the named URL, as `{% url name arg ... %}`."""
    return reverse(name, args=args)


@lru_cache(maxsize=1024)
def _date(value, format_string: str, language: str | None, zone: str | None) -> str:
    return date_format(value, format_string)


def date(value, format_string: str, language: str | None = None) -> str:
    """`value|date:format_string`, as Django's `date` filter (names in the active language:
    `language` if the template passes it, read once), a moment shown in the request's time
    zone as Django's filter shows it (a store's event: the store's, core.zones). The zone is
    part of what is remembered: 22:15 UTC and 17:15 in New York are equal datetimes."""
    zone = None
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
        zone = zone_name()
    return _date(value, format_string, language or get_language(), zone)


@lru_cache(maxsize=1024)
def _floatformat(value, arg, language: str | None):
    return django_floatformat(value, arg)


def floatformat(value, arg=-1, language: str | None = None):
    """`value|floatformat:arg`, as Django's (which localises), once per value and language;
    a template drawing hundreds of values passes the active `language`, read once (reading it
    was most of a standings row's cost)."""
    return _floatformat(value, arg, language or get_language())


def join_text(values, separator: str) -> str:
    """Plain strings (names) joined: the joined text is escaped when printed."""
    return separator.join(values)


def django_escape(value, escape=html.escape) -> str:
    """A printed value as Django's autoescape writes it (`__html__` kept, else escaped); the
    common kinds first, a text and a number (its digits need no escaping)."""
    kind = type(value)
    if kind is str:
        return escape(value)
    if kind is int:
        return str(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


class DjangoEscapeCodeGenerator(CodeGenerator):
    """Jinja2's code generator with each autoescaped `{{ value }}` written as
    `environment.django_escape(value)` instead of MarkupSafe's `escape(value)`; what a block,
    a macro or a `{% set %}` captures is still wrapped as `Markup` by Jinja2 itself."""

    def _output_child_pre(self, node, frame, finalize) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape:
            super()._output_child_pre(node, frame, finalize)
            return
        self.write("environment.django_escape(")
        if finalize.src is not None:
            self.write(finalize.src)

    def _output_child_to_const(self, node, frame, finalize) -> str:
        const = node.as_const(frame.eval_ctx)
        if frame.eval_ctx.autoescape:
            const = django_escape(const)
        if isinstance(node, nodes.TemplateData):
            return str(const)
        return finalize.const(const)


class DjangoEscapeEnvironment(Environment):
    code_generator_class = DjangoEscapeCodeGenerator
    django_escape = staticmethod(django_escape)


def environment(**options) -> Environment:
    """Django's Jinja2 backend's environment (autoescape on, the app folders' `jinja2/`): a
    block tag alone on its line leaves no blank line, and the globals and filters above."""
    extensions = [*options.pop("extensions", ()), "jinja2.ext.i18n"]
    env = DjangoEscapeEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=extensions, **options
    )
    # Jinja2's i18n extension on Django's gettext (the request's language): `{{ _("Round") }}`,
    # `{% trans n=count %}...{% endtrans %}`, `{{ ngettext("%(num)d game", "%(num)d games",
    # n) }}`, `{{ pgettext("round of an event", "Round") }}`; newstyle, so placeholders are
    # named and filled by the call, and the result is escaped like any value
    # (docs/translation.md). `makemessages` reads these templates with Jinja2's own extractor
    # (core/management/commands/makemessages.py).
    env.install_gettext_callables(gettext, ngettext, newstyle=True, pgettext=pgettext)
    env.globals.update(url=url, static=static, zone_label=zone_label, zone_name=zone_name)
    env.filters.update(date=date, floatformat=floatformat, join_text=join_text)
    return env

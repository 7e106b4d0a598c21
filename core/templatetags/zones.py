"""The request's time zone in a template (core.zones): `{% zone_name %}` for a script
(`data-time-zone`), `{% zone_label %}` beside a time a reader elsewhere could misread."""

from django import template

from core import zones

register = template.Library()


@register.simple_tag
def zone_name() -> str:
    return zones.zone_name()


@register.simple_tag
def zone_label() -> str:
    return zones.zone_label()

"""Pieces of the TO console's cards that are the same on every card, made once.

A 512-player 1v1 round has 256 cards, each with the same 15 result buttons; drawn by the
template for every card they were most of the console's time (bench/pages.py). The buttons
depend only on the format and the round's kind, so they are rendered once per process, and a
pod's place options are joined in Python rather than looped in the template.
"""

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@lru_cache(maxsize=16)
def _buttons(template_name: str, top_cut: bool) -> SafeString:
    from ..formats import FORMATS

    play = next(f for f in FORMATS.values() if f.template == template_name)
    return mark_safe(
        render_to_string(f"{template_name}#result-buttons", {"play": play, "top_cut": top_cut})
    )


@register.simple_tag
def result_buttons(play, round_kind: str) -> SafeString:
    """The format's result buttons (the draws left out of a top cut), rendered once."""
    return _buttons(play.template, round_kind == "top_cut")


@register.simple_tag
def place_options(count: int, selected: int | None, empty: str = "place") -> SafeString:
    """`<option>`s for places (or seats) 1..count after an empty choice, `selected` chosen."""
    return mark_safe(
        format_html('<option value="">{}</option>', empty)
        + format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            ((n, mark_safe(" selected") if n == selected else "", n) for n in range(1, count + 1)),
        )
    )

"""`{% walk_in_link event entry %}`: the address of a walk-in's own "your seat" page
(selectors.reports.walk_in_token), for the TO to hand over."""

from django import template
from django.urls import reverse

from ..selectors.reports import walk_in_token

register = template.Library()


@register.simple_tag
def walk_in_link(event, entry) -> str:
    return reverse("my_event_link", kwargs={"slug": event.slug, "token": walk_in_token(entry)})

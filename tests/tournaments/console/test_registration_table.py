"""The TO's registration list (tournaments.tables.RegistrationTable on event_registration):
sortable by its headers with links that work without script, paged by 50, each row with its
paid button and the player's links."""

import re

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Registration
from tournaments.services.registration import (
    check_in,
    check_in_open,
    registration_join,
    registration_paid_set,
    registration_settings_set,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league):
    event = TournamentFactory(league=league, name="Friday cEDH", slug="friday-cedh")
    return registration_settings_set(tournament=event, open=True, cap=None, deadline=None, note="")


def register(event, *names):
    for name in names:
        registration_join(
            tournament=event,
            player=PlayerFactory(organization=event.league.organization, name=name),
        )


def rows(html: str) -> list[str]:
    """The player cells of the registration table, in the order shown."""
    table = html.split('<table class="registrations">', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<td class="name">([^<]*)</td>', table)


def page(client, event, query=""):
    url = reverse("event_registration", args=[event.slug])
    return client.get(url + query).content.decode()


def test_arrival_order_then_each_header_sorts(event, organizer_client):
    register(event, "Cat", "Ann", "Bob")
    check_in_open(tournament=event)
    check_in(registration=Registration.objects.get(player__name="Bob"))
    registration_paid_set(registration=Registration.objects.get(player__name="Cat"), paid=True)
    html = page(organizer_client, event)
    assert rows(html) == ["Cat", "Ann", "Bob"]  # as they registered
    assert 'aria-sort="none"><a href="?sort=player">Player</a></th>' in html
    assert 'aria-sort="none"><a href="?sort=here">Here</a></th>' in html
    assert rows(page(organizer_client, event, "?sort=player")) == ["Ann", "Bob", "Cat"]
    # PostgreSQL puts the not-yet-here (NULL) last ascending, first descending; ties by name.
    assert rows(page(organizer_client, event, "?sort=here")) == ["Bob", "Ann", "Cat"]
    assert rows(page(organizer_client, event, "?sort=-here")) == ["Cat", "Ann", "Bob"]
    assert rows(page(organizer_client, event, "?sort=-paid")) == ["Cat", "Bob", "Ann"]
    assert rows(page(organizer_client, event, "?sort=paid")) == ["Ann", "Bob", "Cat"]


def test_a_row_has_its_paid_button_and_links(event, organizer_client):
    register(event, "Ann")
    ann = Registration.objects.get()
    html = page(organizer_client, event)
    row = html.split('<td class="name">Ann</td>', 1)[1].split("</tr>", 1)[0]
    paid = reverse("registration_paid", args=[event.slug, ann.pk])
    assert f'<form method="post" action="{paid}">' in row
    assert '<input type="hidden" name="paid" value="1">' in row and ">mark paid</button>" in row
    assert '<span class="muted">\u2013</span>' in row  # not here yet
    check_in = reverse("registration_check_in", args=[event.slug, ann.token])
    seat = reverse("my_event_link", args=[event.slug, ann.token])
    assert f'<a href="{check_in}" class="help">check-in link</a>' in row
    assert f'<a href="{seat}" class="help">seat link</a>' in row


def test_fifty_a_page_and_the_sort_kept(event, organizer_client):
    register(event, *(f"P{number:02d}" for number in range(52)))
    html = page(organizer_client, event, "?sort=-player")
    assert len(rows(html)) == 50 and rows(html)[0] == "P51"
    assert '<a href="?sort=-player&amp;page=2" rel="next">Next \u203a</a>' in html
    assert rows(page(organizer_client, event, "?sort=-player&page=2")) == ["P01", "P00"]

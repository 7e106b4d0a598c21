"""The History page as a django-tables2 table: newest first, sortable by who and what with
links that keep the league filter, each row with its before/after and its undo button."""

import re

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from leagues import services
from tests.leagues.test_audit import record, roster  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def actions(html: str) -> list[str]:
    return re.findall(r'<strong class="history-action">([^<]*)</strong>', html)


def test_sorted_by_who_and_what_with_the_filter_kept(organizer_client, league, roster):  # noqa: F811
    record(league, roster, "Ann", "Bob")
    game = record(league, roster, "Cy", "Dee")
    AuditEntry.objects.filter(action="game.create").update(actor_label="zed")
    services.game_delete(game=game, expected_version=0)
    url = reverse("audit_log", args=[league.organization.slug])
    html = organizer_client.get(url, {"league": league.slug}).content.decode()
    entries = AuditEntry.objects.order_by("-created_at", "-id")
    assert actions(html) == [entry.get_action_display() for entry in entries]
    assert 'aria-sort="descending"><a href="?league=friday&amp;sort=when">When</a>' in html
    assert '<a href="?league=friday&amp;sort=who">Who</a>' in html
    by_who = organizer_client.get(url, {"league": league.slug, "sort": "who"}).content.decode()
    whos = re.findall(r'<td class="name">([^<]*)</td>', by_who)
    assert whos == sorted(whos) and whos[-2:] == ["zed", "zed"]
    restore = by_who.split('<tr id="entry-', 1)[1].split("</tr>", 1)[0]
    assert ">Restore this game</button>" in restore
    assert '<input type="hidden" name="league" value="friday">' in restore

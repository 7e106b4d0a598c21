"""The store's players page (organization_players): the claims waiting and the players with
their accounts as sortable, paginated tables whose links work without script and keep the
name search."""

import re

import pytest
from django.urls import reverse

from leagues import services
from leagues.models import PlayerClaim
from tests.factories import OrganizationFactory, PlayerFactory, UserFactory, organizer_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def store():
    return OrganizationFactory(name="Den Games", slug="den")


@pytest.fixture
def desk(client, store):
    client.force_login(organizer_of(store, username="olive"))
    return client


def page(desk, query: str = "") -> str:
    return desk.get(reverse("organization_players", args=["den"]) + query).content.decode()


def names(html: str) -> list[str]:
    """The player column's cells, in the order shown."""
    body = html.split('class="players-accounts"', 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<tr id="player-\d+"[^>]*>\s*<td class="name">([^<]*)</td>', body)


def test_players_sort_by_their_header_links_back_to_page_one(desk, store):
    for name, user in (("Cy", None), ("Ann", "zed"), ("Bob", "abe")):
        PlayerFactory(
            organization=store, name=name, user=UserFactory(username=user) if user else None
        )
    html = page(desk, "?q=&page=1")
    assert names(html) == ["Ann", "Bob", "Cy"]
    # The sorted column's header says so; its link reverses it and drops the page number.
    assert 'aria-sort="ascending"><a href="?q=&amp;sort=-name">Player</a></th>' in html
    assert 'aria-sort="none"><a href="?q=&amp;sort=account">Account</a></th>' in html
    # By account: a player without one sorts first (PostgreSQL puts NULL last descending).
    assert names(page(desk, "?sort=account")) == ["Bob", "Ann", "Cy"]
    assert names(page(desk, "?sort=-name")) == ["Cy", "Bob", "Ann"]
    accounts = page(desk)
    assert '<td class="name"><span class="muted">none</span></td>' in accounts
    assert ">Claim code</button>" in accounts  # Cy has no account


def test_pages_of_fifty_keep_the_search(desk, store):
    for number in range(53):
        PlayerFactory(organization=store, name=f"Deck {number:02d}")
    PlayerFactory(organization=store, name="Someone else")
    html = page(desk, "?q=deck")
    assert len(names(html)) == 50 and 'Players <span class="muted">· 53</span>' in html
    assert '<a href="?q=deck&amp;page=2" rel="next">Next \u203a</a>' in html
    assert '<span class="current" aria-current="page">1</span>' in html
    second = page(desk, "?q=deck&page=2")
    assert names(second) == ["Deck 50", "Deck 51", "Deck 52"]
    assert '<a href="?q=deck&amp;page=1" rel="prev">\u2039 Previous</a>' in second
    nobody = page(desk, "?q=nobody")
    assert "No player&#x27;s name contains “nobody”: try part of the name." in nobody


def test_a_claim_waiting_is_a_row_with_its_answers(desk, store):
    ann = PlayerFactory(organization=store, name="Ann <Archer>")
    services.claim_request(user=UserFactory(username="pat"), player=ann)
    claim = PlayerClaim.objects.get()
    html = page(desk)
    row = html.split(f'<tr id="claim-{claim.pk}" class="claim', 1)[1].split("</tr>", 1)[0]
    assert '<td class="name">pat</td><td class="name">Ann &lt;Archer&gt;</td>' in row
    assert f'action="/organizations/den/claims/{claim.pk}/"' in row
    assert ">Approve</button>" in row and ">Refuse</button>" in row
    assert "csrfmiddlewaretoken" in row


def test_no_claim_waiting_says_none_and_where_claims_come_from(desk):
    html = page(desk)
    waiting = html[html.index("<h2>Claims waiting for you</h2>") :]
    assert waiting.startswith(
        '<h2>Claims waiting for you</h2>\n<div class="empty-state">'
        "<strong>No claim waiting</strong>"
    )
    assert "“This is me”" in waiting[: waiting.index("</div>")]

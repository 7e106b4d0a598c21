"""No store learns another store's private league or event names from a slug.

Slugs are unique across the site (/leagues/<slug>/, /events/<slug>/). They used to be the
name alone, numbered against every store's rows: a judge of store A creating an event named
like store B's private one got "...-2", and the admin refused a league slug with "League with
this Slug already exists"; both proved B's private row existed. Now a new slug is the store's
own slug and the name, numbered against the store's own rows only, and only superusers type
slugs in the admin. The test runs store A's whole routine (a league in the admin, an event on
the site and one in the admin) once on a site where B has no such rows and once where it has
private ones of the same names and the same old-style slugs: A must see exactly the same.
"""

import re

import pytest
from django.contrib.messages import get_messages
from django.db import transaction
from django.urls import reverse

from leagues import services
from leagues.models import League, Role
from tests.factories import LeagueFactory, OrganizationFactory, TournamentFactory, organizer_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NAME = "Friday Modern"


def normalized(text: str) -> str:
    """Row ids differ between the two runs (sequences are not rolled back); nothing else may."""
    return re.sub(r"/\d+/", "/N/", text)


def admin_add_data(client, model: str) -> dict:
    """What the admin's add form would post untouched: its initial values and empty inlines."""
    page = client.get(reverse(f"admin:{model}_add"))
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {}
    for field in form:
        value = field.value()
        if value is None or value is False:
            continue
        data[field.html_name] = "on" if value is True else value
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for field in management:
            data[field.html_name] = field.value()
    return data


def outcome(response) -> tuple:
    messages = [normalized(str(m)) for m in get_messages(response.wsgi_request)]
    body = response.content.decode() if response.status_code != 302 else ""
    errors = sorted(set(re.findall(r'class="errorlist[^"]*"[^>]*>(.*?)</ul>', body, re.S)))
    return response.status_code, normalized(response.get("Location", "")), messages, errors


def store_a_creates_a_league_and_two_events(client, a_league) -> dict:
    """Everything store A's organizer sees, in one transaction rolled back afterwards."""
    seen = {}
    with transaction.atomic():
        data = admin_add_data(client, "leagues_league")
        # What the browser's prepopulation typed before, and an organizer might type now.
        data.update(organization=a_league.organization_id, name=NAME, slug="friday-modern")
        seen["admin league"] = outcome(client.post(reverse("admin:leagues_league_add"), data))
        seen["admin league slug"] = list(
            League.objects.filter(name=NAME, organization=a_league.organization).values_list(
                "slug", flat=True
            )
        )
        site = client.post(
            reverse("event_create", args=[a_league.slug]),
            {
                "name": NAME,
                "date": "2026-11-27",
                "points": "magic",
                "top_cut": "0",
                "first_round": "random",
                "round_minutes": "50",
            },
        )
        seen["site event"] = outcome(site)
        data = admin_add_data(client, "tournaments_tournament")
        data.update(league=a_league.pk, name=NAME, slug="friday-modern", date="2026-11-28", seed=7)
        seen["admin event"] = outcome(
            client.post(reverse("admin:tournaments_tournament_add"), data)
        )
        seen["event slugs"] = sorted(
            Tournament.objects.filter(league=a_league).values_list("slug", flat=True)
        )
        transaction.set_rollback(True)
    return seen


def test_store_a_sees_the_same_whether_or_not_store_b_has_private_rows_so_named(client):
    alpha = OrganizationFactory(name="Alpha Games", slug="alpha")
    a_league = LeagueFactory(organization=alpha, name="Alpha Commander", slug="ac")
    client.force_login(organizer_of(alpha, role=Role.OWNER, username="owen"))

    alone = store_a_creates_a_league_and_two_events(client, a_league)

    beta = OrganizationFactory(name="Beta Cards", slug="beta")
    hidden = LeagueFactory(organization=beta, name=NAME, slug="friday-modern", is_public=False)
    TournamentFactory(league=hidden, name=NAME, slug="friday-modern")
    TournamentFactory(league=hidden, name=NAME, slug="friday-modern-2")
    beside_b = store_a_creates_a_league_and_two_events(client, a_league)

    assert beside_b == alone
    assert alone["admin league slug"] == ["alpha-friday-modern"]
    assert alone["event slugs"] == ["alpha-friday-modern", "alpha-friday-modern-2"]
    assert alone["admin league"][0] == alone["admin event"][0] == 302
    assert alone["site event"][:2] == (302, "/events/alpha-friday-modern/run/")


def test_superusers_still_type_slugs_in_the_admin_and_others_see_them_read_only(client):
    alpha = OrganizationFactory(name="Alpha Games", slug="alpha")
    LeagueFactory(organization=alpha)
    client.force_login(organizer_of(alpha, role=Role.OWNER, username="owen"))
    assert (
        "slug"
        not in client.get(reverse("admin:leagues_league_add")).context["adminform"].form.fields
    )
    assert (
        "slug"
        not in client.get(reverse("admin:tournaments_tournament_add"))
        .context["adminform"]
        .form.fields
    )
    assert (
        "slug"
        not in client.get(reverse("admin:leagues_organization_change", args=[alpha.pk]))
        .context["adminform"]
        .form.fields
    )

    client.force_login(organizer_of(alpha, username="root", is_superuser=True))
    form = client.get(reverse("admin:leagues_league_add")).context["adminform"].form
    assert "slug" in form.fields


def test_a_slug_another_store_holds_gets_a_random_suffix_not_a_number(league):
    # Only an ambiguous hyphenation can do this: store "dragons" and its league "Den Friday"
    # against store "dragons-den" (this test's) and its league "Friday".
    dragons = OrganizationFactory(slug="dragons")
    LeagueFactory(organization=league.organization, slug="dragons-den-friday")

    slug = services.slug_new(
        model=League, organization=dragons, name="Den Friday", scope="organization", fallback="x"
    )

    assert re.fullmatch(r"dragons-den-friday-[0-9a-f]{6}", slug), slug


def test_a_stores_own_rows_are_numbered(league):
    for expected in ["dragons-den-weekly", "dragons-den-weekly-2", "dragons-den-weekly-3"]:
        slug = services.slug_new(
            model=League,
            organization=league.organization,
            name="Weekly",
            scope="organization",
            fallback="league",
        )
        assert slug == expected
        LeagueFactory(organization=league.organization, slug=slug)


def test_a_long_store_slug_and_name_fit_with_room_for_a_number(league):
    org = OrganizationFactory(slug="s" * 60)
    slug = services.slug_new(
        model=League, organization=org, name="N" * 120, scope="organization", fallback="league"
    )
    assert len(slug) <= 60 - services.SLUG_SUFFIX_ROOM
    assert services.slug_new(
        model=League, organization=org, name="!!!", scope="organization", fallback="league"
    ).startswith("s")

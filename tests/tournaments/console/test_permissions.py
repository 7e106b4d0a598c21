"""Per-event judges (TournamentJudge): a user who is not a member of the store runs one event,
its console, pairing and results, and nothing else; named by the store's organizers in the
admin, inside the tournament."""

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from leagues.models import Role
from tests.factories import LeagueFactory, TournamentFactory, UserFactory, organizer_of
from tournaments import permissions
from tournaments.models import Round, TournamentJudge

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_league(organization):
    return LeagueFactory(organization=organization, slug="members", is_public=False)


@pytest.fixture
def event(private_league):
    return TournamentFactory(league=private_league, name="Judged", slug="judged")


@pytest.fixture
def other_event(private_league):
    return TournamentFactory(league=private_league, name="Not judged", slug="not-judged")


@pytest.fixture
def judge(event):
    user = UserFactory(username="visiting-judge")
    TournamentJudge.objects.create(tournament=event, user=user)
    return user


@pytest.fixture
def judge_client(client, judge):
    client.force_login(judge)
    return client


def test_the_permission_functions(event, other_event, judge, organization):
    member = organizer_of(organization, role=Role.JUDGE)
    assert permissions.is_event_judge(judge, event)
    assert not permissions.is_event_judge(judge, other_event)
    assert not permissions.is_event_judge(member, event)  # a member, not this event's own
    assert permissions.can_run_event(judge, event) and permissions.can_run_event(member, event)
    assert not permissions.can_run_event(judge, other_event)
    assert list(permissions.visible_events(judge)) == [event]
    assert set(permissions.visible_events(member)) == {event, other_event}
    assert not permissions.visible_events(AnonymousUser()).exists()
    assert not permissions.can_run_event(AnonymousUser(), event)


def test_an_inactive_judge_has_no_rights(event, judge):
    judge.is_active = False
    judge.save()
    assert not permissions.can_run_event(judge, event)
    assert not permissions.visible_events(judge).exists()


def test_an_event_judge_runs_their_event(judge_client, event, django_capture_on_commit_callbacks):
    for name in ["Ann", "Bob", "Cy", "Dee"]:
        response = judge_client.post(
            reverse("event_register", args=[event.slug]), {"name": name, "new_player": "on"}
        )
        assert response.status_code == 302
    assert judge_client.get(reverse("event_run", args=[event.slug])).status_code == 200
    assert judge_client.post(reverse("event_pair", args=[event.slug])).status_code == 302
    round_ = event.rounds.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.all():
            response = judge_client.post(
                reverse("table_report", args=[event.slug, table.pk]),
                {"result": "2-0", "version": 0},
            )
            assert response.status_code == 302
    response = judge_client.post(reverse("round_end", args=[event.slug, 1]))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE
    assert event.league.games.count() == 2  # every reported table became a league game
    assert all(g.entered_by.username == "visiting-judge" for g in event.league.games.all())
    page = judge_client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "Run event" in page


def test_an_event_judge_gets_nothing_else(judge_client, event, other_event, league):
    """Not another event of the store, not the private league's pages, not event creation,
    not league history; a public league's event is visible but not theirs to run."""
    private = event.league
    public_event = TournamentFactory(league=league, slug="public-event")
    expected = [
        (reverse("event_detail", args=[other_event.slug]), 404),
        (reverse("event_run", args=[other_event.slug]), 404),
        (reverse("league_detail", args=[private.slug]), 404),
        (reverse("event_list", args=[private.slug]), 404),
        (reverse("event_create", args=[private.slug]), 404),
        (reverse("game_create", args=[private.slug]), 404),
        (reverse("event_detail", args=[public_event.slug]), 200),
        (reverse("event_run", args=[public_event.slug]), 403),
        (reverse("event_create", args=[league.slug]), 403),
        (reverse("game_create", args=[league.slug]), 403),
    ]
    got = [(url, judge_client.get(url).status_code) for url, _ in expected]
    assert got == expected
    response = judge_client.post(reverse("event_register", args=[other_event.slug]), {"name": "X"})
    assert response.status_code == 404
    assert not other_event.entries.exists()


def test_judging_one_event_shows_no_private_league_through_the_api(judge_client, event):
    response = judge_client.get(reverse("api_scores", kwargs={"slug": event.league.slug}))
    assert response.status_code == 404
    assert json.loads(response.content)["error"]["code"] == "not_found"


def test_removing_the_judge_removes_the_rights(judge_client, event, judge):
    TournamentJudge.objects.filter(user=judge).delete()
    assert judge_client.get(reverse("event_run", args=[event.slug])).status_code == 404


# --- the admin inline --------------------------------------------------------------------


def change_form_data(response) -> dict:
    """The admin change form's POST data as rendered: the form and every inline formset."""
    data = {}

    def add(form):
        for name in form.fields:
            value = form[name].value()
            key = form.add_prefix(name)
            if value is None or value is False:
                continue
            if value is True:
                data[key] = "on"
            elif isinstance(value, (list, dict)):
                data[key] = json.dumps(value)
            else:
                data[key] = str(value)

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        add(formset.management_form)
        for form in formset.forms:
            add(form)
    return data


def test_an_organizer_names_a_judge_in_the_tournament_admin(client, event, organizer):
    judge = UserFactory(username="guest-to")
    client.force_login(organizer)
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])
    page = client.get(url)
    assert page.status_code == 200
    data = change_form_data(page)
    data.update({"judges-TOTAL_FORMS": "1", "judges-0-user": "guest-to"})
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    assert list(event.judges.values_list("user__username", flat=True)) == ["guest-to"]
    assert permissions.can_run_event(judge, event)


def test_an_unknown_username_is_refused(client, event, organizer):
    client.force_login(organizer)
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])
    data = change_form_data(client.get(url))
    data.update({"judges-TOTAL_FORMS": "1", "judges-0-user": "nobody-by-that-name"})
    response = client.post(url, data)
    assert response.status_code == 200
    assert "There is no user with this username." in response.content.decode()
    assert not event.judges.exists()


def test_a_store_judge_cannot_name_event_judges(client, event, organization):
    """Judges of the store run events but do not hand out rights: the admin is closed."""
    client.force_login(organizer_of(organization, role=Role.JUDGE))
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])
    assert client.get(url).status_code == 403

"""Deleting tournaments and their parts: what goes, what stays, what is refused.

A whole event goes with its entries, rounds, tables and seats, but the league games its
tables created stay (they are the league's history and ratings); the confirmation says so.
An entry who sat at a table cannot be removed alone, nor can a round or a table (the event
would no longer match its rounds); a league with a played event can be deleted whole.
"""

import json

import pytest
from django import forms
from django.urls import reverse

from leagues.deletion import delete_preview
from leagues.models import Game, League
from ratings.models import Rating
from tests import scenes
from tests.factories import TournamentFactory, UserFactory
from tests.leagues.test_delete import all_rows, text
from tests.tournaments.play import register
from tournaments import selectors
from tournaments import selectors as tournament_selectors
from tournaments.models import Entry, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(league, django_capture_on_commit_callbacks):
    """A 1v1 event of five (a bye each round) after two rated rounds, plus a late entry."""
    event = TournamentFactory(league=league, name="Friday Swiss", swiss_rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        scenes.rounds_played(2, event=event, players=5)
        register(event, "Late")
    return event


@pytest.fixture
def superuser_client(client):
    # The event form's inlines need the model permissions that only superusers hold.
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def admin_url(obj, view="delete") -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_{view}", args=[obj.pk])


def test_the_preview_of_an_event_lists_its_parts_and_says_its_games_stay(played):
    preview = delete_preview(played)
    assert preview.allowed
    assert [str(c) for c in preview.deleted] == [
        "1 event",
        "6 entries",
        "2 rounds",
        "10 seats",
        "6 tables",
    ]
    assert preview.notes == (
        f"The 4 games its tables added to {played.league} stay in the league, with their "
        "ratings; delete them from the game log if they should go too.",
    )


def test_the_admin_deletes_an_event_on_post_only_and_its_games_stay(
    client, played, organizer, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    ratings = sorted(Rating.objects.values_list("player__name", "value"))
    before = all_rows()
    page = text(client.get(admin_url(played)))
    assert "Are you sure" in page
    assert "Seats: 10" in page and "Tables: 6" in page and "Entries: 6" in page
    assert "The 4 games its tables added" in page
    assert all_rows() == before
    preview = delete_preview(played)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(admin_url(played), {"post": "yes"})
    assert response.status_code == 302
    assert before - all_rows() == preview.rows
    assert Game.objects.filter(league=played.league).count() == 4
    assert sorted(Rating.objects.values_list("player__name", "value")) == ratings


def test_a_league_with_a_played_event_is_deleted_whole(client, played, organizer):
    client.force_login(organizer)
    league = played.league
    page = text(client.get(admin_url(league)))
    assert "Tournaments: 1" in page and "Seats: 10" in page and "Games: 4" in page
    assert client.post(admin_url(league), {"post": "yes"}).status_code == 302
    assert not League.objects.filter(pk=league.pk).exists()
    assert not Tournament.objects.exists() and not Seat.objects.exists()


def test_an_entry_who_played_cannot_be_deleted_alone(played):
    ann = played.entries.get(player__name="Ann")
    preview = delete_preview(ann)
    assert not preview.allowed
    assert "“Ann in Friday Swiss” cannot be deleted" in preview.refusal()
    assert "2 seats" in preview.refusal()
    assert delete_preview(played.entries.get(player__name="Late")).allowed


def change_form_data(response) -> dict:
    """The admin change form's current values, as the browser would post them back."""
    data = {}
    bound = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
        bound += inline.formset.forms
    for form in bound:
        for name, field in form.fields.items():
            value = form[name].value()
            key = form.add_prefix(name)
            if value is None or value is False:
                continue
            if value is True:
                data[key] = "on"
            elif isinstance(field, forms.SplitDateTimeField):
                data[key + "_0"], data[key + "_1"] = value.strftime("%Y-%m-%d %H:%M:%S").split()
            elif isinstance(field, forms.JSONField):
                data[key] = json.dumps(value) if not isinstance(value, str) else value
            else:
                data[key] = str(value)
    return data


def entry_form_prefix(response, entry) -> str:
    for inline in response.context["inline_admin_formsets"]:
        for form in inline.formset.forms:
            if form.instance.pk == entry.pk and isinstance(form.instance, Entry):
                return form.prefix
    raise AssertionError("no form for the entry")


def test_the_event_form_refuses_to_delete_an_entry_who_played(superuser_client, played):
    client = superuser_client
    url = admin_url(played, "change")
    page = client.get(url)
    ann = played.entries.get(player__name="Ann")
    data = change_form_data(page)
    data[entry_form_prefix(page, ann) + "-DELETE"] = "on"
    before = all_rows()
    response = client.post(url, data)
    assert response.status_code == 200
    assert "would require deleting the following protected related objects" in text(response)
    assert all_rows() == before


def test_the_event_form_deletes_an_entry_who_never_played(superuser_client, played):
    client = superuser_client
    url = admin_url(played, "change")
    page = client.get(url)
    late = played.entries.get(player__name="Late")
    data = change_form_data(page)
    data[entry_form_prefix(page, late) + "-DELETE"] = "on"
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context.get("errors")
    assert not Entry.objects.filter(pk=late.pk).exists()
    assert played.entries.count() == 5


def test_rounds_and_tables_are_never_deleted_alone(client, played, organizer):
    client.force_login(organizer)
    round_ = played.rounds.first()
    table = round_.tables.first()
    for obj in (round_, table):
        assert client.get(admin_url(obj)).status_code == 403
        assert client.post(admin_url(obj), {"post": "yes"}).status_code == 403
    assert Round.objects.filter(pk=round_.pk).exists() and Table.objects.filter(pk=table.pk)


def test_the_event_form_has_no_delete_box_for_rounds(superuser_client, played):
    page = superuser_client.get(admin_url(played, "change"))
    rounds = [i for i in page.context["inline_admin_formsets"] if i.formset.model is Round]
    assert not rounds[0].formset.can_delete


def test_deleting_a_tournament_game_on_the_site_keeps_the_table_and_the_standings(
    organizer_client, played, django_capture_on_commit_callbacks
):
    table = Table.objects.filter(round__tournament=played, game__isnull=False).first()
    standings = selectors.standing_lines(played)
    page = text(organizer_client.get(reverse("game_delete", args=[table.game_id])))
    assert "Kept, with the game left empty: 1 table (the tournament keeps its result)" in page
    with django_capture_on_commit_callbacks(execute=True):
        organizer_client.post(reverse("game_delete", args=[table.game_id]))
    table.refresh_from_db()
    assert table.game_id is None and table.reported
    assert selectors.standing_lines(played) == standings
    assert tournament_selectors.standings(played).ranking == [
        line.player_id for line in standings[1]
    ]


def test_leagues_names_no_app_above_it_for_deletion_notes():
    """The event's note is the tournaments app's, registered in its ready(); a second,
    different note for the same model fails loudly instead of replacing it."""
    import pathlib

    from leagues.deletion import NOTES, delete_note_register
    from tournaments.deletion import tournament_delete_notes

    assert NOTES["tournaments.Tournament"] is tournament_delete_notes
    text = pathlib.Path(__file__).parents[3].joinpath("leagues/deletion.py").read_text()
    assert "tournaments" not in text and "Tournament" not in text
    with pytest.raises(ValueError, match="already has its deletion notes"):
        delete_note_register("tournaments.Tournament", lambda obj: [])

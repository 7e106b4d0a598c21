"""The TO's console under double taps and many phones: every button is safe to press twice.

A repeat of End round, Pair round, Start the top cut, a pairing edit, Register, Drop, Undo
drop or Remove answers with the console as it is now (a redirect and a note), never an error,
and changes nothing. Eight judges tapping the same button at once (real threads, one
connection each) get no error and create one round. Registering asks before it creates a
player; a drop is confirmed, can be undone on the console or in History, and an entry that
never sat at a table can be removed.
"""

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from leagues.models import Player, Role
from tests import concurrency, scenes
from tests.factories import LeagueFactory, PlayerFactory, TournamentFactory, organizer_of
from tests.tournaments.play import register
from tournaments.errors import TournamentError, UnknownPlayer
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import round_seating_key
from tournaments.services.entries import entry_drop, entry_register, entry_undrop
from tournaments.services.rounds import round_pair

from .test_console_on_demand import edit_form_url


@pytest.fixture
def judge(league):
    return organizer_of(league.organization, role=Role.JUDGE, username="jude")


@pytest.fixture
def judge_client(client, judge):
    client.force_login(judge)
    return client


def top_cut_played(league) -> tuple[Tournament, Round]:
    """A 1v1 event of one Swiss round and a top 4, its semifinals reported but not ended."""
    event = TournamentFactory(league=league, top_cut=4, swiss_rounds=1, slug="cut")
    scene = scenes.round_reported(scenes.top_cut_started(event=event, players="ABCD"))
    return event, scene.round


def console_after(response, client) -> str:
    assert response.status_code == 302 and response.url.endswith("/run/")
    return client.get(response.url).content.decode()


# --- a second tap -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_ending_a_complete_top_cut_round_again_is_already_done(judge_client, league):
    event, semis = top_cut_played(league)
    url = reverse("round_end", args=[event.slug, semis.number])
    assert judge_client.post(url).status_code == 302
    again = judge_client.post(url)
    assert "Semifinals is already complete." in console_after(again, judge_client)
    assert list(event.rounds.values_list("number", flat=True).order_by("number")) == [1, 2, 3]


@pytest.mark.django_db
def test_ending_a_complete_swiss_round_again_is_already_done(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    scenes.round_reported(event=event, players="ABCD")
    url = reverse("round_end", args=[event.slug, 1])
    assert judge_client.post(url).status_code == 302
    assert "Round 1 is already complete." in console_after(judge_client.post(url), judge_client)


@pytest.mark.django_db
def test_pairing_a_round_twice_pairs_it_once(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    register(event, *"ABCD")
    url = reverse("event_pair", args=[event.slug])
    console = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert 'name="number" value="1"' in console
    assert judge_client.post(url, {"number": "1"}).status_code == 302
    again = judge_client.post(url, {"number": "1"})
    assert "Round 1 is already paired." in console_after(again, judge_client)
    assert event.rounds.count() == 1


@pytest.mark.django_db
def test_starting_the_top_cut_twice_pairs_it_once(judge_client, league):
    event = TournamentFactory(league=league, top_cut=4, swiss_rounds=1, slug="cut")
    scenes.rounds_played(1, event=event, players="ABCD")
    url = reverse("top_cut_start", args=[event.slug])
    assert judge_client.post(url).status_code == 302
    again = judge_client.post(url)
    assert "The top 4 is already paired." in console_after(again, judge_client)
    assert event.rounds.filter(kind=Round.Kind.TOP_CUT).count() == 1


@pytest.mark.django_db
def test_a_second_tap_of_swap_does_not_swap_them_back(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    a, b, _, _ = register(event, *"ABCD")
    round_ = round_pair(tournament=event)
    console = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    seating = round_seating_key(round_)
    # The edit form, fetched when the TO opens it, sends back the seating the console showed.
    form = judge_client.get(edit_form_url(console), HTTP_HX_REQUEST="true").content.decode()
    assert f'name="seating" value="{seating}"' in form
    url = reverse("round_edit", args=[event.slug, 1])
    data = {"edit": "swap", "a": a.pk, "b": b.pk, "seating": seating}
    before = {s.entry_id: s.table_id for s in round_.seats.all()}
    assert judge_client.post(url, data).status_code == 302
    after = {s.entry_id: s.table_id for s in round_.seats.all()}
    again = judge_client.post(url, data)
    # The browser may show only the second answer: it says the swap is done, as the first did.
    said = console_after(again, judge_client)
    assert "Swapped A and B: done by the first tap, the second changed nothing." in said
    assert {s.entry_id: s.table_id for s in round_.seats.all()} == after != before
    assert AuditEntry.objects.filter(action="pairing.swap").count() == 1


@pytest.mark.django_db
def test_an_edit_sent_on_pairings_changed_meanwhile_says_so(judge_client, league):
    """Not a double tap: another judge swapped first, or the same TO sends another edit from
    the old page. Nothing changes, and the page says the pairings changed (not "done")."""
    event = TournamentFactory(league=league, slug="swiss")
    a, b, c, _ = register(event, *"ABCD")
    round_ = round_pair(tournament=event)
    url = reverse("round_edit", args=[event.slug, 1])
    old = round_seating_key(round_)
    other = Client()
    other.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jill"))
    swap = {"edit": "swap", "a": a.pk, "b": b.pk, "seating": old}
    assert other.post(url, swap).status_code == 302
    after = {s.entry_id: s.table_id for s in round_.seats.all()}
    for data in (
        {"edit": "swap", "a": a.pk, "b": b.pk, "seating": old},  # the same swap, by jude
        {"edit": "swap", "a": a.pk, "b": c.pk, "seating": old},  # another swap
    ):
        said = console_after(judge_client.post(url, data), judge_client)
        assert "changed since this page was loaded" in said
        assert "done by the first tap" not in said
    assert {s.entry_id: s.table_id for s in round_.seats.all()} == after
    assert AuditEntry.objects.filter(action="pairing.swap").count() == 1


@pytest.mark.django_db
def test_a_second_tap_of_drop_is_already_done(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    ann, _ = register(event, "Ann", "Bob")
    url = reverse("entry_drop", args=[event.slug, ann.pk])
    assert judge_client.post(url).status_code == 302
    again = judge_client.post(url)
    assert "Ann has already dropped." in console_after(again, judge_client)
    assert AuditEntry.objects.filter(action="entry.drop").count() == 1


# --- eight phones at once ---------------------------------------------------------------------


def tap_at_once(user, url: str, data: dict | None = None, *, taps: int = 8) -> list:
    """`taps` judges (one client and one database connection each) post `url` together;
    returns the status codes, or the exceptions raised."""
    clients = []
    for _ in range(taps):
        client = Client(raise_request_exception=True)
        client.force_login(user)
        clients.append(client)
    return concurrency.run_together(
        *(lambda client=client: client.post(url, data or {}).status_code for client in clients)
    )


@pytest.mark.django_db(transaction=True)
def test_eight_taps_of_end_round_on_a_top_cut_round_end_it_once():
    league = LeagueFactory()
    user = organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event, semis = top_cut_played(league)
    outcomes = tap_at_once(user, reverse("round_end", args=[event.slug, semis.number]))
    assert outcomes == [302] * 8
    assert event.rounds.filter(kind=Round.Kind.TOP_CUT).count() == 2  # semifinals, one final
    assert Round.objects.get(pk=semis.pk).status == Round.Status.COMPLETE


@pytest.mark.django_db(transaction=True)
def test_eight_taps_of_end_round_on_a_swiss_round_end_it_once():
    league = LeagueFactory()
    user = organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = TournamentFactory(league=league, slug="swiss", swiss_rounds=1)
    scenes.round_reported(event=event, players="ABCDEF")
    outcomes = tap_at_once(user, reverse("round_end", args=[event.slug, 1]))
    assert outcomes == [302] * 8
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED and event.rounds.count() == 1


@pytest.mark.django_db(transaction=True)
def test_eight_taps_of_pair_round_pair_one_round():
    league = LeagueFactory()
    user = organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = TournamentFactory(league=league, slug="swiss")
    register(event, *"ABCDEFGH")
    outcomes = tap_at_once(user, reverse("event_pair", args=[event.slug]), {"number": "1"})
    assert outcomes == [302] * 8
    assert event.rounds.count() == 1
    assert Round.objects.get().tables.count() == 4


@pytest.mark.django_db(transaction=True)
def test_eight_taps_of_start_top_cut_pair_it_once():
    league = LeagueFactory()
    user = organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = TournamentFactory(league=league, top_cut=4, swiss_rounds=1, slug="cut")
    scenes.rounds_played(1, event=event, players="ABCD")
    outcomes = tap_at_once(user, reverse("top_cut_start", args=[event.slug]))
    assert outcomes == [302] * 8
    assert event.rounds.filter(kind=Round.Kind.TOP_CUT).count() == 1


@pytest.mark.django_db(transaction=True)
def test_eight_taps_of_register_register_once():
    league = LeagueFactory()
    user = organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = TournamentFactory(league=league, slug="swiss")
    data = {"name": "Newcomer", "new_player": "on"}
    outcomes = tap_at_once(user, reverse("event_register", args=[event.slug]), data)
    assert outcomes == [302] * 8
    assert event.entries.get().player.name == "Newcomer"
    assert Player.objects.filter(name="Newcomer").count() == 1


@pytest.mark.django_db(transaction=True)
def test_eight_taps_of_swap_swap_once():
    league = LeagueFactory()
    user = organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = TournamentFactory(league=league, slug="swiss")
    a, b, *_ = register(event, *"ABCDEFGH")
    round_ = round_pair(tournament=event)
    data = {"edit": "swap", "a": a.pk, "b": b.pk, "seating": round_seating_key(round_)}
    outcomes = tap_at_once(user, reverse("round_edit", args=[event.slug, 1]), data)
    assert outcomes == [302] * 8
    assert AuditEntry.objects.filter(action="pairing.swap").count() == 1


# --- registering asks before it creates a player ----------------------------------------------


@pytest.mark.django_db
def test_an_unknown_name_is_asked_about_and_creates_nothing(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    url = reverse("event_register", args=[event.slug])
    response = judge_client.post(url, {"name": "Zelda Typo"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "New player? Zelda Typo is not a player of" in page and "tick to confirm" in page
    assert 'name="new_player"' in page and 'value="Zelda Typo"' in page
    assert not Player.objects.filter(name="Zelda Typo").exists()
    assert not event.entries.exists()
    confirmed = judge_client.post(url, {"name": "Zelda Typo", "new_player": "on"})
    assert confirmed.status_code == 302
    assert event.entries.get().player.name == "Zelda Typo"


@pytest.mark.django_db
def test_a_known_name_in_any_case_registers_that_player(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    josh = PlayerFactory(organization=league.organization, name="Josh")
    response = judge_client.post(reverse("event_register", args=[event.slug]), {"name": "JOSH"})
    assert response.status_code == 302
    assert event.entries.get().player == josh
    assert Player.objects.filter(organization=league.organization).count() == 1


@pytest.mark.django_db
def test_the_service_refuses_an_unknown_name_unless_asked_to_create(league):
    event = TournamentFactory(league=league, slug="swiss")
    with pytest.raises(UnknownPlayer):
        entry_register(tournament=event, name="Nobody")
    assert not Player.objects.exists()


# --- drop: confirmed, undone; an entry removed -----------------------------------------------


@pytest.mark.django_db
def test_drop_asks_first_without_javascript(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    register(event, "Ann", "Bob")
    ann = event.entries.get(player__name="Ann")
    page = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    actions = reverse("entry_actions", args=[event.slug, ann.pk])
    # The console lists each player's actions; their forms come when opened.
    assert "<summary>½ bye · drop · remove</summary>" in page and f'href="{actions}"' in page
    assert "Yes, drop" not in page
    forms = judge_client.get(actions).content.decode()  # without JavaScript: a page
    assert "Yes, drop" in forms and "Drop Ann? They keep their results" in forms
    assert "<html" in forms and "Back to the console" in forms
    fragment = judge_client.get(actions, HTTP_HX_REQUEST="true").content.decode()
    assert "Yes, drop" in fragment and "<html" not in fragment


@pytest.mark.django_db
def test_a_drop_is_undone_on_the_console(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    ann, _ = register(event, "Ann", "Bob")
    judge_client.post(reverse("entry_drop", args=[event.slug, ann.pk]))
    page = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "undo drop" in page
    url = reverse("entry_undrop", args=[event.slug, ann.pk])
    assert "Ann is back in" in console_after(judge_client.post(url), judge_client)
    assert Entry.objects.get(pk=ann.pk).dropped_after is None
    again = judge_client.post(url)
    assert "there is no drop to undo" in console_after(again, judge_client)
    drop = AuditEntry.objects.get(action="entry.drop")
    undo = AuditEntry.objects.get(action="entry.undrop")
    assert undo.reverts == drop and undo.actor_label == "jude"
    assert undo.before == {"player": "Ann", "dropped_after": 0}


@pytest.mark.django_db
def test_a_dropped_player_is_paired_again_after_the_undo(league):
    event = TournamentFactory(league=league, slug="swiss")
    ann = scenes.rounds_played(1, event=event, players="ABCD").entry("A")
    entry_drop(entry=ann)
    assert entry_undrop(entry=ann).dropped_after is None
    round_ = round_pair(tournament=event)
    assert round_.seats.filter(entry=ann).exists()


@pytest.mark.django_db
def test_a_drop_is_undone_from_history(client, league):
    event = TournamentFactory(league=league, slug="swiss")
    ann, _ = register(event, "Ann", "Bob")
    owner = organizer_of(league.organization, role=Role.OWNER, username="owen")
    entry_drop(entry=ann, by=owner)
    client.force_login(owner)
    history = reverse("audit_log", args=[league.organization.slug])
    assert "Undo this drop" in client.get(history).content.decode()
    drop = AuditEntry.objects.get(action="entry.drop")
    undo_url = reverse("audit_undo", args=[league.organization.slug, drop.pk])
    assert client.post(undo_url).status_code == 302
    assert Entry.objects.get(pk=ann.pk).dropped_after is None
    assert AuditEntry.objects.get(action="entry.undrop").reverts == drop
    page = client.get(history).content.decode()
    assert "Undo this drop" not in page and "Drop undone" in page
    client.post(undo_url)  # a second tap: refused, nothing changes
    assert AuditEntry.objects.filter(action="entry.undrop").count() == 1


@pytest.mark.django_db
def test_a_drop_is_not_undone_after_the_swiss_rounds(league):
    event = TournamentFactory(league=league, top_cut=4, swiss_rounds=1, slug="cut")
    scene = scenes.event_open(event=event, players="ABCDE")
    eve = scene.entry("E")
    entry_drop(entry=eve)
    scenes.top_cut_started(scene)
    with pytest.raises(TournamentError, match="Swiss rounds are over"):
        entry_undrop(entry=eve)
    assert Entry.objects.get(pk=eve.pk).dropped_after == 0


@pytest.mark.django_db
def test_an_entry_never_seated_is_removed(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    ann, _ = register(event, "Ann", "Bob")
    actions = reverse("entry_actions", args=[event.slug, ann.pk])
    page = judge_client.get(actions, HTTP_HX_REQUEST="true").content.decode()
    assert "Remove Ann from this event?" in page and "Yes, remove" in page
    url = reverse("entry_remove", args=[event.slug, ann.pk])
    assert "Ann is no longer registered" in console_after(judge_client.post(url), judge_client)
    assert not Entry.objects.filter(pk=ann.pk).exists()
    assert Player.objects.filter(name="Ann").exists()  # the store keeps her
    removed = AuditEntry.objects.get(action="entry.remove")
    assert removed.object_id == ann.pk and removed.before["player"] == "Ann"
    assert removed.actor_label == "jude" and removed.tournament_id == event.pk
    again = judge_client.post(url)
    assert "no longer registered" in console_after(again, judge_client)


@pytest.mark.django_db
def test_a_seated_entry_is_not_removed(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    ann = scenes.round_paired(event=event, players="ABCD").entry("A")
    page = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "<summary>remove</summary>" not in page
    response = judge_client.post(reverse("entry_remove", args=[event.slug, ann.pk]))
    assert response.status_code == 400
    assert "A has already sat at a table: drop them instead" in response.content.decode()
    assert Entry.objects.filter(pk=ann.pk).exists()
    assert not AuditEntry.objects.filter(action="entry.remove").exists()


# --- requested ("half-point") byes -------------------------------------------------------------


@pytest.mark.django_db
def test_a_half_point_bye_from_the_console_twice_and_back(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    ann, *_ = register(event, "Ann", "Bob", "Cy", "Dee", "Eve")
    url = reverse("entry_bye", args=[event.slug, ann.pk])
    actions = reverse("entry_actions", args=[event.slug, ann.pk])
    page = judge_client.get(actions, HTTP_HX_REQUEST="true").content.decode()
    assert "Give the bye" in page and 'name="round" min="1" value="1"' in page

    first = console_after(judge_client.post(url, {"round": "1"}), judge_client)
    again = console_after(judge_client.post(url, {"round": "1"}), judge_client)

    assert "Ann sits out round 1 with a half-point bye." in first
    assert "½ bye in round 1" in first
    assert "Ann already has a bye in round 1." in again
    assert AuditEntry.objects.filter(action="entry.bye_request").count() == 1
    judge_client.post(reverse("event_pair", args=[event.slug]), {"number": "1"})
    page = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "Bye ½ (requested): Ann" in page
    assert "½ bye in round 1" not in page  # paired now: no longer an upcoming request


@pytest.mark.django_db
def test_taking_a_half_point_bye_back_on_the_console(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    ann, _ = register(event, "Ann", "Bob")
    url = reverse("entry_bye", args=[event.slug, ann.pk])
    judge_client.post(url, {"round": "2"})

    back = console_after(judge_client.post(url, {"round": "2", "action": "remove"}), judge_client)
    again = console_after(judge_client.post(url, {"round": "2", "action": "remove"}), judge_client)

    assert "Ann plays round 2 after all." in back
    assert "Ann has no bye asked for in round 2." in again
    assert not ann.requested_byes.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["", "x", "-1", "0", "²", "100"])
def test_a_bad_round_for_a_half_point_bye_is_refused_with_a_message(judge_client, league, value):
    event = TournamentFactory(league=league, slug="swiss")
    ann, _ = register(event, "Ann", "Bob")

    response = judge_client.post(reverse("entry_bye", args=[event.slug, ann.pk]), {"round": value})

    assert response.status_code in (302, 400)
    page = (
        console_after(response, judge_client)
        if response.status_code == 302
        else response.content.decode()
    )
    assert "round" in page.lower() and ("no round" in page or "as a number" in page)
    assert not ann.requested_byes.exists()

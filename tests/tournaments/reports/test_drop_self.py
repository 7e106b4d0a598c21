"""A player drops themselves from their phone (issue 31).

Through `services.entry_drop_self`, which is the TO's drop (`entry_drop`) written as the
player's: History says so, the console tags the player "dropped by the player" and the TO
undoes it as any drop. A player seated at a table whose result is not in may drop: that table
still needs its result, and they are left out of the pairings from the next round on. Before
round 1 they unregister instead; in the top cut they tell the TO. The page asks first, a
second tap changes nothing, and the address names no entry: a player drops only themselves.
"""

import html

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from audit.services import audit_undo
from tests import scenes
from tests.factories import LeagueFactory, TournamentFactory, UserFactory
from tests.tournaments.play import register
from tournaments.actions import Action
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Entry, Round, Table, Tournament
from tournaments.services.entries import entry_drop, entry_drop_self
from tournaments.services.results import table_report
from tournaments.services.rounds import round_advance, round_end, round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def pod(db):
    """A pod event of 8 (two pods), 3 Swiss rounds, round 1 paired; Ann (at pod 1) is linked
    to an account."""
    event = scenes.pods_round_in_play().event
    ann = Entry.objects.select_related("player").get(tournament=event, player__name="Ann")
    user = UserFactory(username="ann")
    ann.player.user = user
    ann.player.save(update_fields=["user"])
    return {"event": event, "ann": ann, "user": user}


def said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def ann_table(pod) -> Table:
    return Table.objects.get(round__tournament=pod["event"], seats__entry=pod["ann"])


# --- the service ------------------------------------------------------------------------------


def test_a_player_at_a_table_without_a_result_drops_from_the_next_round_on(pod):
    event, ann = pod["event"], pod["ann"]
    table = ann_table(pod)
    dropped = entry_drop_self(entry=ann, by=pod["user"])
    assert dropped.dropped_after == 1
    # Their table is untouched and still needs its result.
    table.refresh_from_db()
    assert not table.reported and ann.pk in set(table.seats.values_list("entry_id", flat=True))
    scenes.tables_reported(event.rounds.get())
    round_end(round_=event.rounds.get())
    second = round_pair(tournament=event)
    assert not second.seats.filter(entry=ann).exists()
    assert second.seats.count() == 7
    # History: the TO's drop, said to be the player's.
    log = AuditEntry.objects.get(action=Action.ENTRY_DROP, object_id=ann.pk)
    assert log.after == {"player": "Ann", "dropped_after": 1, "by_player": True}
    assert log.summary == "Friday: Ann dropped (by the player, from their page)"
    assert log.actor == pod["user"]


def test_a_second_tap_changes_nothing(pod):
    entry_drop_self(entry=pod["ann"], by=pod["user"])
    with pytest.raises(AlreadyDone, match="You have already dropped"):
        entry_drop_self(entry=pod["ann"], by=pod["user"])
    assert AuditEntry.objects.filter(action=Action.ENTRY_DROP).count() == 1


def test_before_round_one_the_player_unregisters_instead(db):
    event = TournamentFactory(league=LeagueFactory())
    (ann,) = register(event, "Ann")
    with pytest.raises(TournamentError, match="unregister on the event page"):
        entry_drop_self(entry=ann)
    ann.refresh_from_db()
    assert ann.dropped_after is None and not AuditEntry.objects.filter(action="entry.drop")


def test_in_the_top_cut_the_player_tells_the_to(db):
    event = TournamentFactory(league=LeagueFactory(), swiss_rounds=1, top_cut=4)
    entries = list(scenes.top_cut_started(event=event, players="ABCD").entries.values())
    with pytest.raises(TournamentError, match="tell the TO"):
        entry_drop_self(entry=entries[0])
    assert Entry.objects.filter(dropped_after__isnull=False).count() == 0


def test_the_to_undoes_a_players_drop_from_history(pod):
    entry_drop_self(entry=pod["ann"], by=pod["user"])
    audit_undo(entry=AuditEntry.objects.get(action=Action.ENTRY_DROP))
    pod["ann"].refresh_from_db()
    assert pod["ann"].dropped_after is None


# --- the pages --------------------------------------------------------------------------------


def test_the_player_drops_from_their_page_after_a_confirmation(client, pod):
    event, ann = pod["event"], pod["ann"]
    client.force_login(pod["user"])
    page = client.get(reverse("my_event", args=[event.slug])).content.decode()
    drop = reverse("my_event_drop", args=[event.slug])
    assert f'<a href="{drop}">Drop from the event</a>' in page
    # The link asks first: what a drop means, and the table that still needs its result.
    asked = client.get(drop)
    text = asked.content.decode()
    assert asked.status_code == 200
    pod_number = ann.seats.get().table.number
    assert f"Your pod {pod_number} has no result yet: it still needs one" in text
    assert 'name="confirm" value="yes"' in text and "Yes, drop me from Friday" in text
    ann.refresh_from_db()
    assert ann.dropped_after is None  # asking changed nothing
    # A post without the confirmation only asks again.
    assert client.post(drop).status_code == 200
    ann.refresh_from_db()
    assert ann.dropped_after is None
    done = client.post(drop, {"confirm": "yes"}, follow=True)
    assert done.redirect_chain == [(reverse("my_event", args=[event.slug]), 302)]
    assert said(done) == [
        "You have dropped from Friday. You keep your results and are not paired again. "
        f"Your pod {pod_number} still needs its result: report it here or tell the TO."
    ]
    page = done.content.decode()
    assert "You have dropped: this pod still needs its result" in page
    assert "Drop from the event" not in page
    again = client.post(drop, {"confirm": "yes"}, follow=True)
    assert said(again) == ["You have already dropped from this event."]
    assert AuditEntry.objects.filter(action=Action.ENTRY_DROP).count() == 1


def test_a_player_drops_only_themselves(client, pod):
    event = pod["event"]
    bob = Entry.objects.get(tournament=event, player__name="Bob")
    client.force_login(pod["user"])
    client.post(reverse("my_event_drop", args=[event.slug]), {"confirm": "yes", "entry": bob.pk})
    dropped = set(Entry.objects.filter(dropped_after__isnull=False).values_list("pk", flat=True))
    assert dropped == {pod["ann"].pk}
    # Someone who is not playing (here: a logged-in stranger) is refused and drops nobody.
    client.force_login(UserFactory(username="stranger"))
    answer = client.post(reverse("my_event_drop", args=[event.slug]), {"confirm": "yes"})
    assert answer.status_code == 403
    assert Entry.objects.filter(dropped_after__isnull=False).count() == 1


def test_the_console_shows_the_players_drop_and_the_to_undoes_it(client, organizer_client, pod):
    event, ann = pod["event"], pod["ann"]
    from tests.factories import organizer_of

    to = organizer_of(event.league.organization, username="to")
    organizer_client.force_login(to)
    entry_drop_self(entry=ann, by=pod["user"])
    console = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    line = console.split('<span class="entry-name">Ann')[1].split("</li>")[0]
    assert '<span class="tag">dropped by the player</span>' in line
    assert f"{ann.pk}/undrop/" in line and "undo drop" in line
    back = organizer_client.post(reverse("entry_undrop", args=[event.slug, ann.pk]), follow=True)
    assert "Ann is back in: they are paired from the next round." in said(back)
    ann.refresh_from_db()
    assert ann.dropped_after is None
    line = back.content.decode().split('<span class="entry-name">Ann')[1].split("</li>")[0]
    assert "dropped" not in line
    # A drop the TO makes afterwards is the TO's, not the player's.
    entry_drop(entry=ann, by=to)
    console = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    line = console.split('<span class="entry-name">Ann')[1].split("</li>")[0]
    assert '<span class="tag">dropped</span>' in line and "by the player" not in line


def test_the_round_after_a_players_drop_leaves_them_out_on_the_console(pod):
    """The TO's one tap pairs the next round without the dropped player."""
    event, ann = pod["event"], pod["ann"]
    entry_drop_self(entry=ann, by=pod["user"])
    first = event.rounds.get()
    for table in first.tables.all():
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    second = round_advance(round_=first)
    assert second.number == 2 and not second.seats.filter(entry=ann).exists()
    assert Round.objects.get(pk=first.pk).status == Round.Status.COMPLETE
    assert Tournament.objects.get(pk=event.pk).status == Tournament.Status.SWISS


# --- issue 43: the drop page words the table as it stands --------------------------------------


def _pod_seats(pod):
    table = ann_table(pod)
    seats = table.seats.select_related("entry__player").order_by("position")
    return table, [s.entry for s in seats]


def test_the_drop_page_says_nothing_is_missing_once_the_pods_result_is_confirmed(client, pod):
    from tests.tournaments.play import report_posted
    from tournaments.models import ResultReport
    from tournaments.services.reports import report_confirm

    table, seats = _pod_seats(pod)
    others = [e for e in seats if e.pk != pod["ann"].pk]
    report_posted(table=table, entry=others[0], data={"winner": str(others[0].pk)})
    for entry in [pod["ann"], *others[1:]]:
        report_confirm(report=ResultReport.objects.get(), entry=entry)
    client.force_login(pod["user"])
    drop = reverse("my_event_drop", args=[pod["event"].slug])
    asked = client.get(drop).content.decode()
    assert "still needs" not in asked and "no result yet" not in asked
    done = client.post(drop, {"confirm": "yes"}, follow=True)
    assert "still needs" not in " ".join(said(done)) and "still needs" not in done.content.decode()


def test_the_drop_page_asks_for_the_players_confirmation_not_a_result(client, pod):
    """The others reported and confirmed; the pod waits for the player who is leaving."""
    from tests.tournaments.play import report_posted
    from tournaments.models import ResultReport
    from tournaments.services.reports import report_confirm

    table, seats = _pod_seats(pod)
    others = [e for e in seats if e.pk != pod["ann"].pk]
    report_posted(table=table, entry=others[0], data={"winner": str(others[0].pk)})
    for entry in others[1:]:
        report_confirm(report=ResultReport.objects.get(), entry=entry)
    client.force_login(pod["user"])
    drop = reverse("my_event_drop", args=[pod["event"].slug])
    asked = html.unescape(client.get(drop).content.decode())
    assert "no result yet" not in asked
    assert f"Your pod {table.number}'s result is reported and waits for you" in asked
    done = client.post(drop, {"confirm": "yes"}, follow=True)
    assert f"Your pod {table.number}'s result waits for your confirmation" in " ".join(said(done))


def test_where_the_to_enters_results_the_drop_page_does_not_send_the_player_to_report(client, pod):
    Tournament.objects.filter(pk=pod["event"].pk).update(self_report="off")
    client.force_login(pod["user"])
    asked = client.get(reverse("my_event_drop", args=[pod["event"].slug])).content.decode()
    number = ann_table(pod).number
    assert f"Your pod {number} has no result yet: tell the TO yours before you leave." in asked
    assert "Report it on your page" not in asked

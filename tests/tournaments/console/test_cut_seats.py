"""Who sits where at a pod top cut: by seed, the seeds' own choices (recorded by the TO), or at
random (Tournament.cut_seats; domain.podcut.CUT_SEATS)."""

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from leagues.models import Role
from tests.factories import organizer_of
from tests.tournaments.play import play_round, register
from tournaments.domain import podcut
from tournaments.errors import TournamentError
from tournaments.selectors import standings, top_cut_bracket
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.topcut import cut_seats_choose, top_cut_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge_client(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


def final_of(league, cut_seats: str, name="Cut"):
    """An 8-player pod event, one Swiss round, its top 4 paired: (event, final table, seeds)."""
    event = tournament_create(
        league=league, name=name, format="pods", swiss_rounds=1, top_cut=4, cut_seats=cut_seats
    )
    register(event, *(f"S{n}" for n in range(8)))
    play_round(event)
    seeds = standings(event).ranking[:4]
    final = top_cut_start(tournament=event).tables.get()
    return event, final, seeds


def seated(table) -> list[int]:
    return [s.entry.player_id for s in table.seats.order_by("position")]


def test_by_seed_puts_the_best_seed_in_seat_one(league):
    _, final, seeds = final_of(league, "by_seed")
    assert seated(final) == seeds


def test_random_seats_are_the_domains_draw_for_the_event(league):
    event, final, seeds = final_of(league, "random")
    draw = f"event {event.pk} seed {event.seed} stage 0 pod 1"
    assert seated(final) == list(podcut.seat_order(tuple(seeds), "random", draw=draw))
    assert sorted(seated(final)) == sorted(seeds)


def test_an_unknown_seat_rule_is_refused(league):
    with pytest.raises(TournamentError) as refused:
        tournament_create(league=league, name="X", format="pods", cut_seats="rating")
    assert refused.value.code == "cut_seats"


def test_seeds_choose_their_seats_and_the_console_records_it(league):
    event, final, seeds = final_of(league, "seed_picks")
    assert seated(final) == seeds  # by seed until they choose
    entry = {e.player_id: e.pk for e in event.entries.all()}
    # Seed 1 takes seat 2, seed 2 seat 1, seed 3 seat 4, seed 4 the seat left (3).
    picks = {entry[seeds[0]]: 2, entry[seeds[1]]: 1, entry[seeds[2]]: 4, entry[seeds[3]]: 3}
    assert cut_seats_choose(table=final, picks=picks) is True
    assert seated(final) == [seeds[1], seeds[0], seeds[3], seeds[2]]
    assert cut_seats_choose(table=final, picks=picks) is False  # a double tap
    logged = AuditEntry.objects.filter(action="cut.seats")
    assert logged.count() == 1 and "seats chosen" in logged.get().summary
    # The bracket page follows the seats; the seeds stay the Swiss standings'.
    assert top_cut_bracket(event).seeds == tuple(seeds)


@pytest.mark.parametrize(
    ("seats", "code"),
    [((1, 1, 2, 3), "seat_taken"), ((1, 2, 3, 5), "bad_seat"), ((1, 2, 3), "picks_count")],
)
def test_bad_seat_choices_change_nothing(league, seats, code):
    event, final, seeds = final_of(league, "seed_picks")
    entry = {e.player_id: e.pk for e in event.entries.all()}
    picks = {entry[p]: seat for p, seat in zip(seeds, seats, strict=False)}
    with pytest.raises(TournamentError) as refused:
        cut_seats_choose(table=final, picks=picks)
    assert refused.value.code == code
    assert seated(final) == seeds
    assert not AuditEntry.objects.filter(action="cut.seats").exists()


def test_seats_are_not_chosen_by_seed_events_nor_after_the_result(league):
    event, final, seeds = final_of(league, "by_seed")
    entry = {e.player_id: e.pk for e in event.entries.all()}
    picks = {entry[p]: n for n, p in enumerate(reversed(seeds), 1)}
    with pytest.raises(TournamentError) as refused:
        cut_seats_choose(table=final, picks=picks)
    assert refused.value.code == "not_seed_picks"
    event, final, seeds = final_of(league, "seed_picks", name="Later")
    entry = {e.player_id: e.pk for e in event.entries.all()}
    table_report(table=final, draw=True)
    picks = {entry[p]: n for n, p in enumerate(reversed(seeds), 1)}
    with pytest.raises(TournamentError) as refused:
        cut_seats_choose(table=final, picks=picks)
    assert refused.value.code == "reported"


def test_the_console_form_records_the_seats_once(judge_client, league):
    event, final, seeds = final_of(league, "seed_picks")
    console = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    url = reverse("table_seats", args=[event.slug, final.pk])
    assert f'action="{url}"' in console and "Seats chosen by the seeds" in console
    entry = {e.player_id: e.pk for e in event.entries.all()}
    form = {f"seat-{entry[p]}": str(n) for n, p in enumerate(reversed(seeds), 1)}
    first = judge_client.post(url, form, follow=True).content.decode()
    assert "the seeds&#x27; seats are recorded" in first
    assert seated(final) == list(reversed(seeds))
    again = judge_client.post(url, form, follow=True).content.decode()
    assert "already sits that way" in again
    assert AuditEntry.objects.filter(action="cut.seats").count() == 1
    bad = judge_client.post(url, {**form, f"seat-{entry[seeds[0]]}": ""})
    assert bad.status_code == 400
    assert seated(final) == list(reversed(seeds))
    pairings = judge_client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "the seeds choose their seats" in pairings

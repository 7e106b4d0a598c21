"""An event that requires a legal list (`decklist_required`): round 1 and the top cut are not
paired past an entry without one until the TO has seen who and chosen to go on (the IPG's
Decklist Problem, 3.4); what they went on with is kept on the round and in the History."""

import io

import pytest
from django.core.management import call_command

from audit.models import AuditEntry
from tests.cards.sample import SAMPLE
from tests.factories import TournamentFactory
from tests.tournaments.play import register
from tournaments.errors import AlreadyDone, DecklistsMissing
from tournaments.models import Round
from tournaments.services.decks import entry_deck_set
from tournaments.services.results import table_report
from tournaments.services.rounds import round_advance, round_pair
from tournaments.services.topcut import top_cut_start

pytestmark = pytest.mark.django_db

PAIR = "Thrasios, Triton Hero / Tymna the Weaver"
GOOD = "Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n\nDeck\n1 Sol Ring\n97 Island\n"
CRYPT = GOOD.replace("97 Island", "1 Mana Crypt\n96 Island")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")


@pytest.fixture
def event(league):
    call_command("load_cards", str(SAMPLE), stdout=io.StringIO())
    event = TournamentFactory(
        league=league, swiss_rounds=1, top_cut=4, decklist_format="commander",
        decklist_required=True,
    )  # fmt: skip
    return event


def lists(event, good=NAMES[:6], crypt=("Gus",)):
    entries = {e.player.name: e for e in register(event, *NAMES)}
    for name in good:
        entry_deck_set(entry=entries[name], name=PAIR, text=GOOD)
    for name in crypt:
        entry_deck_set(entry=entries[name], name=PAIR, text=CRYPT)
    return entries


def test_round_1_waits_until_the_to_has_seen_who_has_no_legal_list(event):
    entries = lists(event)
    with pytest.raises(DecklistsMissing) as error:
        round_pair(tournament=event, number=1)
    assert error.value.code == "decklists"
    assert [(r["player"], r["why"]) for r in error.value.rows] == [
        ("Gus", "Mana Crypt is banned in commander."),
        ("Hal", "no list"),
    ]
    assert "Gus" in error.value.message and "Hal" in error.value.message
    assert not event.rounds.exists()
    # The TO saw Hal only; Gus is new to them: asked again, nothing paired.
    with pytest.raises(DecklistsMissing):
        round_pair(tournament=event, number=1, decklists_accepted=[entries["Hal"].pk])
    assert not event.rounds.exists()


def test_going_on_records_the_lists_on_the_round_and_in_the_history(event):
    entries = lists(event)
    seen = [entries["Gus"].pk, entries["Hal"].pk]
    round_ = round_pair(tournament=event, number=1, decklists_accepted=seen)
    assert round_.number == 1 and round_.tables.count() == 4
    round_.refresh_from_db()
    assert round_.decklist_problems == [
        {"entry": entries["Gus"].pk, "player": "Gus", "why": "Mana Crypt is banned in commander."},
        {"entry": entries["Hal"].pk, "player": "Hal", "why": "no list"},
    ]
    assert "Decklist Problem" in round_.notes_text and "Gus" in round_.notes_text
    audit = AuditEntry.objects.get(action="round.decklists")
    assert "Gus" in audit.summary and "Hal" in audit.summary
    with pytest.raises(AlreadyDone):  # the confirm button pressed twice
        round_pair(tournament=event, number=1, decklists_accepted=seen)
    assert event.rounds.count() == 1
    assert AuditEntry.objects.filter(action="round.decklists").count() == 1


def test_a_list_fixed_meanwhile_is_not_recorded(event):
    entries = lists(event)
    seen = [entries["Gus"].pk, entries["Hal"].pk]
    entry_deck_set(entry=entries["Gus"], name=PAIR, text=GOOD, as_organizer=True)
    round_ = round_pair(tournament=event, number=1, decklists_accepted=seen)
    assert [r["player"] for r in round_.decklist_problems] == ["Hal"]


def test_without_the_requirement_or_with_every_list_legal_nothing_is_asked(event, league):
    lists(event, good=NAMES, crypt=())
    assert round_pair(tournament=event, number=1).decklist_problems == []
    other = TournamentFactory(league=league, decklist_format="commander", slug="other")
    register(other, *NAMES)
    assert round_pair(tournament=other, number=1).decklist_problems == []


def test_the_top_cut_asks_about_the_players_in_the_cut(event):
    entries = lists(event, good=(), crypt=())  # nobody has a list
    everyone = [e.pk for e in entries.values()]
    first = round_pair(tournament=event, number=1, decklists_accepted=everyone)
    assert len(first.decklist_problems) == 8
    winners = set()
    for table in first.tables.all():
        seat = table.seats.order_by("position").first()
        table_report(table=table, winner=seat.entry)
        winners.add(seat.entry.player.name)
    # The last Swiss round's one tap ends it and starts the cut: refused as a whole.
    with pytest.raises(DecklistsMissing) as error:
        round_advance(round_=first)
    assert {r["player"] for r in error.value.rows} == winners  # the top 4: round 1's winners
    first.refresh_from_db()
    assert first.status == Round.Status.PLAYING
    cut_ids = [r["entry"] for r in error.value.rows]
    cut = round_advance(round_=first, decklists_accepted=cut_ids)
    assert cut.kind == Round.Kind.TOP_CUT
    assert {r["player"] for r in cut.decklist_problems} == winners
    with pytest.raises(AlreadyDone):
        top_cut_start(tournament=event, decklists_accepted=cut_ids)


def test_a_round_1_paired_offline_is_recorded_not_asked_about(event):
    entries = lists(event)
    players = [e.player_id for e in entries.values()]
    seatings = [tuple(players[i : i + 2]) for i in range(0, 8, 2)]
    round_ = round_pair(tournament=event, number=1, seatings=seatings, notes=[])
    assert [r["player"] for r in round_.decklist_problems] == ["Gus", "Hal"]

"""The TO console's confirm step for an event that requires a legal list: "Pair round 1",
"Start the top cut" and the one-tap next button show who has none and why, with two buttons
(let them fix it first; go on and record a Decklist Problem). Going on twice pairs once; the
event's page then says whose lists were not legal at the start."""

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from audit.models import AuditEntry
from tests.cards.sample import SAMPLE
from tests.factories import TournamentFactory
from tests.tournaments.play import register
from tournaments.models import Round
from tournaments.services.decks import entry_deck_set
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

PAIR = "Thrasios, Triton Hero / Tymna the Weaver"
GOOD = "Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n\nDeck\n1 Sol Ring\n97 Island\n"
CRYPT = GOOD.replace("97 Island", "1 Mana Crypt\n96 Island")


@pytest.fixture
def event(league):
    call_command("load_cards", str(SAMPLE), stdout=io.StringIO())
    event = TournamentFactory(
        league=league, slug="cedh", swiss_rounds=1, top_cut=4, decklist_format="commander",
        decklist_required=True,
    )  # fmt: skip
    entries = {e.player.name: e for e in register(event, "Ann", "Bob", "Cy", "Dee", "Gus", "Hal")}
    for name in ("Ann", "Bob", "Cy", "Dee"):
        entry_deck_set(entry=entries[name], name=PAIR, text=GOOD)
    entry_deck_set(entry=entries["Gus"], name=PAIR, text=CRYPT)
    event.ids = {name: e.pk for name, e in entries.items()}
    return event


def pair_url(event):
    return reverse("event_pair", kwargs={"slug": event.slug})


def test_pair_round_1_shows_who_has_no_legal_list_and_two_choices(event, organizer_client):
    response = organizer_client.post(pair_url(event), {"number": "1"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "2 players without a legal list" in page
    assert re.search(r"Gus</a>: Mana Crypt is banned in commander\.", page)
    assert re.search(r"Hal</a>: no list", page)
    assert 'name="decklists" value="wait"' in page and 'name="decklists" value="go_on"' in page
    assert page.count('name="accepted"') == 2
    assert not event.rounds.exists()


def test_let_them_fix_it_first_pairs_nothing(event, organizer_client):
    response = organizer_client.post(pair_url(event), {"number": "1", "decklists": "wait"})
    assert response.status_code == 302
    assert response["Location"].endswith(
        reverse("event_registration", kwargs={"slug": event.slug}) + "#without-legal-list"
    )
    assert not event.rounds.exists()


def test_go_on_pressed_twice_pairs_once_and_the_event_page_says_so(event, organizer_client):
    seen = {"number": "1", "decklists": "go_on",
            "accepted": [str(event.ids["Gus"]), str(event.ids["Hal"])]}  # fmt: skip
    first = organizer_client.post(pair_url(event), seen)
    second = organizer_client.post(pair_url(event), seen)
    assert first.status_code == second.status_code == 302
    assert event.rounds.count() == 1
    assert AuditEntry.objects.filter(action="round.decklists").count() == 1
    page = organizer_client.get(reverse("event_detail", kwargs={"slug": event.slug}))
    text = page.content.decode()
    assert "Lists not legal at the start" in text
    assert "Gus: list not legal" in text and "Hal: no list" in text
    assert "Mana Crypt" not in text  # the deck is not public yet


def test_the_top_cut_and_the_next_button_ask_too(event, organizer_client):
    everyone = list(event.ids.values())
    first = round_pair(tournament=event, number=1, decklists_accepted=everyone)
    for table in first.tables.all():
        seats = list(table.seats.order_by("position"))
        if len(seats) > 1:
            table_report(table=table, winner=seats[0].entry)
    next_url = reverse("round_advance", kwargs={"slug": event.slug, "number": 1})
    asked = organizer_client.post(next_url)
    assert asked.status_code == 200 and "Before you start the top 4" in asked.content.decode()
    assert Round.objects.get(pk=first.pk).status == Round.Status.PLAYING  # not ended either
    organizer_client.post(reverse("round_end", kwargs={"slug": event.slug, "number": 1}))
    cut_url = reverse("top_cut_start", kwargs={"slug": event.slug})
    page = organizer_client.post(cut_url).content.decode()
    shown = re.findall(r'name="accepted" value="(\d+)"', page)
    assert len(shown) >= 1 and f'action="{cut_url}"' in page
    organizer_client.post(cut_url, {"decklists": "go_on", "accepted": shown})
    organizer_client.post(cut_url, {"decklists": "go_on", "accepted": shown})
    assert event.rounds.filter(kind=Round.Kind.TOP_CUT).count() == 1


@pytest.mark.parametrize(
    ("lang", "before", "go_on"),
    [
        (
            "de",
            "Dieses Turnier verlangt eine legale {format}-Liste. Bevor du Runde 1 paarst:",
            "Weiter: Runde 1 paaren, Problem mit der Deckliste festhalten",
        ),
        (
            "ja",
            "このイベントでは有効な{format}のリストが必要です。ラウンド1の対戦表を作る前に：",  # noqa: RUF001
            "続行：ラウンド1の対戦表を作り、デッキリストの問題を記録",  # noqa: RUF001
        ),
    ],
)
def test_the_confirm_step_is_written_whole_for_round_1_in_each_language(
    event, organizer_client, settings, lang, before, go_on
):
    """Issue 45: "Before you %(what)s:" had "pair round 1" put in, which read wrongly."""
    organizer_client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = organizer_client.post(pair_url(event), {"number": "1"}).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    with translation.override(lang):
        before = before.format(format=event.get_decklist_format_display())
    assert before in text and go_on in text

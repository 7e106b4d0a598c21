"""The words at the end of an evening (issue 43): a top-cut round is called by its stage
("Final", "Semifinals") on every page, never by its number ("Round 3" of a one-round event's
final was shown on the console, its End button, the flash after it and the game's notes);
and the end of the event is said once on the console, not once by the flash and again by the
page (the flash repeated the page's "Round 3 is complete.").
"""

import re

import pytest
from django.urls import reverse

from leagues.models import Game
from tests import scenes
from tests.factories import TournamentFactory, UserFactory
from tournaments.models import Round, Tournament

from .test_console_taps import said

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    """The page's <main> as a person reads it: tags out, spaces folded."""
    main = re.search(r"<main.*?</main>", html, re.S)[0]
    main = re.sub(r"<script.*?</script>", "", main, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


@pytest.fixture
def final(league) -> tuple[Tournament, Round]:
    """A 1v1 event of one Swiss round and a top 4, in its final (round 3): every table of
    the final reported, the final not ended."""
    event = TournamentFactory(league=league, top_cut=4, swiss_rounds=1, slug="cut")
    scene = scenes.rounds_played(1, scenes.top_cut_started(event=event, players=4))  # the semis
    final = event.rounds.get(number=3)
    assert final.kind == Round.Kind.TOP_CUT and final.stage == "Final"
    scenes.tables_reported(final)
    return scene.event, final


# --- a top-cut round is called by its stage ----------------------------------------------------


def test_the_console_calls_the_final_the_final(final, organizer_client):
    event, _ = final
    page = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    words = text_of(page)
    assert "Round 3" not in words and "round 3" not in words, words
    assert '<h2>Final<span id="round-time"' in page  # playing: the clock says so
    assert "End the final</button>" in page
    earlier = re.search(r"Correct an earlier round: (.*?)</p>", page)[1]
    assert re.findall(r">([^<]+)</a>", earlier) == ["round 1", "the semifinals"]


def test_ending_the_final_says_final_and_a_second_tap_too(final, organizer_client):
    event, round_ = final
    url = reverse("round_end", args=[event.slug, round_.number])
    answer = organizer_client.post(url, follow=True)
    assert said(answer) == ["Final is complete."]
    again = organizer_client.post(url, follow=True)
    assert said(again) == ["Final is already complete."]


def test_the_public_pages_and_the_players_page_call_the_final_the_final(final, client):
    event, round_ = final
    for name in ("event_detail", "event_projector"):
        page = client.get(reverse(name, args=[event.slug])).content.decode()
        assert "Round 3" not in page, name
        assert "Final" in page, name
    entry = round_.tables.get().seats.first().entry
    entry.player.user = UserFactory(username="finalist")
    entry.player.save(update_fields=["user"])
    client.force_login(entry.player.user)
    page = client.get(reverse("my_event", args=[event.slug])).content.decode()
    assert "Round 3" not in page
    assert '<h2>Final <span class="muted">' in page


def test_the_finals_game_in_the_league_says_final(final):
    event, round_ = final
    game = Game.objects.get(pk=round_.tables.get().game_id)
    assert game.notes == f"{event.name}, Final, table 1"


# --- the end of the event is said once ---------------------------------------------------------


def finished_console(answer) -> tuple[list[str], str]:
    assert answer.redirect_chain[-1][0].endswith("/run/")
    return said(answer), text_of(answer.content.decode())


def test_ending_the_final_says_the_event_is_finished_once(final, organizer_client):
    event, round_ = final
    url = reverse("round_end", args=[event.slug, round_.number])
    flashed, words = finished_console(organizer_client.post(url, follow=True))
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert flashed == ["Final is complete."]
    assert words.count("Final is complete.") == 1, words  # the flash, not the page again
    assert words.count("The event is finished") == 1, words
    assert "The event is finished: the final standings are in." in words


def test_the_one_tap_on_the_final_says_the_event_is_finished_once(final, organizer_client):
    event, round_ = final
    url = reverse("round_advance", args=[event.slug, round_.number])
    flashed, words = finished_console(organizer_client.post(url, follow=True))
    assert flashed == ["Final is complete."]
    assert words.count("finished") == 1, words
    assert words.count("Final is complete.") == 1, words


def test_the_last_round_without_a_cut_says_the_event_is_finished_once(league, organizer_client):
    event = TournamentFactory(league=league, swiss_rounds=1, top_cut=0, slug="short")
    scenes.round_reported(event=event, players="ABCD")
    url = reverse("round_end", args=[event.slug, 1])
    flashed, words = finished_console(organizer_client.post(url, follow=True))
    assert flashed == ["Round 1 is complete."]
    assert words.count("Round 1 is complete.") == 1, words
    assert words.count("finished") == 1, words
    # A later look at the console still says it, once.
    words = text_of(organizer_client.get(reverse("event_run", args=[event.slug])).content.decode())
    assert words.count("The event is finished: the final standings are in.") == 1, words


def test_finishing_after_round_n_says_the_event_is_finished_once(league, organizer_client):
    event = TournamentFactory(league=league, swiss_rounds=3, top_cut=0, slug="early")
    scenes.rounds_played(1, event=event, players="ABCD")
    url = reverse("event_swiss_finish", args=[event.slug])
    flashed, words = finished_console(organizer_client.post(url, {"after": "1"}, follow=True))
    assert flashed == ["The Swiss rounds ended after round 1."]
    assert words.count("finished") == 1, words

"""Issue 45: a round's notes (what the pairing had to allow, a TO's edits, a round paired on
the phone, the lists not legal) and a top-cut round's stage are kept as data (the English
template and its values, a stage's code), and each reader reads them in their language,
whatever language the TO who wrote them had; a round written before keeps its text."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from notifications.sending import round_label
from tests import scenes
from tests.factories import organizer_of
from tournaments.models import Round
from tournaments.services.rounds import round_edit, round_pair, round_swap

pytestmark = pytest.mark.django_db


@pytest.fixture
def swapped():
    """Round 1 of five players (two tables and a bye), Ann's and the bye's seats swapped by
    the TO "tessa" while her page was in Japanese."""
    scene = scenes.event_open(players=5)
    round_ = round_pair(tournament=scene.event)
    tables = list(round_.tables.all())
    on_bye = next(t for t in tables if t.seats.count() == 1).seats.get().entry
    seated = next(t for t in tables if t.seats.count() == 2).seats.order_by("position")[0].entry
    tessa = organizer_of(scene.event.league.organization, username="tessa")
    with translation.override("ja"):
        round_swap(round_=round_, a=on_bye, b=seated, by=tessa)
    round_.refresh_from_db()
    return round_, on_bye.player.name, seated.player.name


def test_a_tos_edit_reads_in_german_and_japanese(swapped):
    round_, a, b = swapped
    (line,) = [n for n in round_.notes if "swapped" in n.get("msgid", "")]
    assert line["params"]["a"] == a and line["params"]["who"] == "tessa"
    with translation.override("de"):
        german = round_.notes_shown[-1]
    with translation.override("ja"):
        japanese = round_.notes_shown[-1]
    assert german.endswith(f"tessa hat {a} und {b} getauscht.")
    assert japanese.endswith(f"tessaが{a}と{b}を入れ替えました。")
    assert "swapped" not in german + japanese
    assert round_.notes_shown[-1].endswith(f"tessa swapped {a} and {b}.")


def test_an_edit_without_a_user_name_says_a_to_in_the_readers_language():
    scene = scenes.event_open(players=4)
    round_ = round_pair(tournament=scene.event)
    t1, t2 = round_.tables.all()
    a, b = t1.seats.order_by("position")[0].entry, t2.seats.order_by("position")[0].entry
    round_edit(round_=round_, edit="pair", a=a, b=b)
    round_.refresh_from_db()
    with translation.override("de"):
        assert f"die Turnierleitung hat {a.player} gegen {b.player} gepaart." in round_.notes_text
    with translation.override("ja"):
        assert "主催者が" in round_.notes_text and "a TO" not in round_.notes_text


def test_the_console_shows_the_rounds_notes_in_the_readers_language(swapped):
    round_, a, b = swapped
    client = Client()
    client.force_login(organizer_of(round_.tournament.league.organization, username="olga"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = client.get(reverse("event_run", args=[round_.tournament.slug])).content.decode()
    assert escape(f"tessa hat {a} und {b} getauscht.") in page
    assert "swapped" not in page


def test_a_round_written_before_shows_its_notes_as_they_were():
    scene = scenes.round_paired(players=4)
    old = "2 rematches could not be avoided: 1 v 2.\n14:05 tessa swapped Ann and Bob."
    Round.objects.filter(pk=scene.round.pk).update(
        notes=[{"text": line} for line in old.split("\n")]
    )
    round_ = Round.objects.get(pk=scene.round.pk)
    with translation.override("de"):
        assert round_.notes_text == old
    # A text of before as a document written before imports it: one note a line.
    round_.notes = old
    assert round_.notes_shown == old.split("\n")
    round_.notes_add(round_.notes_shown[0])
    assert round_.notes[-1] == {"text": "2 rematches could not be avoided: 1 v 2."}


def test_the_rematches_a_pairing_allowed_read_in_each_language():
    scene = scenes.rounds_played(1, players=2, swiss_rounds=3)  # round 2: a rematch
    second = round_pair(tournament=scene.event)
    assert second.notes and second.notes[0]["plural"].startswith("%(n)s rematches")
    with translation.override("de"):
        german = second.notes_text
    with translation.override("ja"):
        japanese = second.notes_text
    assert "sich nicht vermeiden" in german and "could not" not in german, german
    assert "再戦を避けられませんでした" in japanese and "could not" not in japanese, japanese


def test_a_top_cut_rounds_stage_reads_in_the_readers_language():
    scene = scenes.top_cut_started()  # a top 4: the semifinals
    round_ = scene.round
    round_.refresh_from_db()
    assert (round_.stage, round_.notes) == ("Semifinals", [])
    with translation.override("de"):
        assert (round_.label, round_.label_in_sentence) == ("Halbfinals", "die Halbfinals")
        assert round_label(round_) == "Top Cut: Halbfinals"
    with translation.override("ja"):
        assert round_.label == "準決勝"
        assert "Semifinals" not in round_label(round_)


def test_a_problems_count_is_said_in_the_languages_plural():
    from tournaments.domain.nextround import NextRoundError, close_round
    from tournaments.errors import domain_message

    opened = {"tables": [{"number": n, "players": [n, n + 10], "requested": False} for n in (2, 5)]}
    with pytest.raises(NextRoundError) as error:
        close_round({"history": [], "open": opened})
    with translation.override("de"):
        assert domain_message(error.value) == "Noch kein Ergebnis an den Tischen 2, 5."
    with translation.override("ja"):
        assert "2, 5" in domain_message(error.value) and "tables" not in domain_message(error.value)

"""Issue 45: a penalty keeps why it was upgraded and the result it entered as notes (the
English template and its values), and each reader reads them in their own language: the
infraction and the penalty by Wizards' own IPG terms, how many times in that language's
words, never an English ordinal glued in. A penalty written before keeps its English text."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from judging.models import Penalty
from judging.services.penalties import penalty_give
from leagues.models import Role
from tests import scenes
from tests.factories import organizer_of
from tests.judging.helpers import seated, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return scenes.round_paired(swiss_rounds=3).event


def third_violation(event) -> Penalty:
    ann = seated(table(event, 1))[0]
    with translation.override("ja"):  # whoever gives it: the row keeps no language
        for _ in range(2):
            penalty_give(entry=ann, infraction="GPE-GRV")
        return penalty_give(entry=ann, infraction="GPE-GRV")


def test_the_upgrade_reads_in_german_and_japanese_with_their_own_ordinals(event):
    row = third_violation(event)
    row.refresh_from_db()
    assert row.upgrade_reason["msgid"].startswith("%(infraction)s for the third time")
    with translation.override("de"):
        german = row.upgrade_text
    with translation.override("ja"):
        japanese = row.upgrade_text
    assert german == "Spielfehler — Spielregelverstoß zum dritten Mal bei diesem Turnier (IPG 2)"
    assert "ゲーム上の誤り — ゲームのルール違反" in japanese and "3回目" in japanese
    for text in (german, japanese):
        assert "third" not in text and "3rd" not in text and "Game Rule" not in text


def test_a_fifth_offense_counts_in_the_languages_plural(event):
    ann = seated(table(event, 1))[0]
    for _ in range(4):
        penalty_give(entry=ann, infraction="TE-SP", penalty="warning", deviation_reason="x")
    row = penalty_give(entry=ann, infraction="TE-SP")
    assert row.penalty == "game_loss"
    assert row.upgrade_text == "Tournament Error — Slow Play, 5 times at this event (IPG 3)"
    with translation.override("pl"):
        assert "5 razy" in row.upgrade_text
    with translation.override("ja"):
        assert "5回" in row.upgrade_text


def test_the_result_a_penalty_entered_reads_in_the_readers_language(event):
    ann = seated(table(event, 1))[0]
    row = penalty_give(entry=ann, infraction="TE-OA")  # a Match Loss: the opponent wins 2-0
    row.refresh_from_db()
    with translation.override("de"):
        assert row.result_text == "Matchverlust: der Gegner gewinnt 2-0"
    with translation.override("ja"):
        assert row.result_text.startswith("マッチの敗北") and "2-0" in row.result_text
    assert row.result_text == "Match Loss: the opponent wins 2-0"


def test_a_pods_penalty_result_names_the_winner_in_any_language():
    pod = table(scenes.pods_round_in_play().event, 1)
    ann, bob, cat, dan = seated(pod)
    penalty_give(entry=ann, infraction="TE-OA")
    penalty_give(entry=bob, infraction="USC-C")
    last = penalty_give(entry=dan, infraction="TE-T")
    first = Penalty.objects.get(entry=ann)
    with translation.override("de"):
        assert last.result_text.startswith("Spielverlust: ")
        assert cat.player.name in last.result_text and "wins" not in last.result_text
        assert first.result_text.startswith("Matchverlust: ")
    with translation.override("ja"):
        assert last.result_text.startswith("ゲームの敗北") and cat.player.name in last.result_text


def test_a_penalty_written_before_shows_its_text_as_it_was(event):
    ann = seated(table(event, 1))[0]
    row = penalty_give(entry=ann, infraction="TE-OA")
    old = "the second Slow Play of this event (IPG 3)"
    Penalty.objects.filter(pk=row.pk).update(
        upgrade_reason={"text": old}, result_entered="Match Loss: the opponent wins 2-0"
    )
    row.refresh_from_db()
    with translation.override("de"):
        assert (row.upgrade_text, row.result_text) == (old, "Match Loss: the opponent wins 2-0")


def test_the_judges_penalty_list_shows_the_reason_in_the_readers_language(event):
    row = third_violation(event)
    client = Client()
    user = organizer_of(event.league.organization, role=Role.JUDGE, username="judy")
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = client.get(reverse("judge_penalties", args=[event.slug])).content.decode()
    with translation.override("de"):
        assert escape(row.upgrade_text) in page
    assert "for the third time" not in page

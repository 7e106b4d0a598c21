"""Sentences a translator sees whole (issue 45, "every store's language"): each was glued from
pieces translated apart (a heading and ": find my seat", a status word lowercased into
"already %(status)s", a verb phrase put into "or %(what)s and record a Decklist Problem", a
format's noun put into a count) and read wrongly in other languages. Each is read here in
German and Japanese, as the reader sees it."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests import scenes

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def in_language(client, lang: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


# --- the event page's heading ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "Round 1: find my seat"),
        ("de", "Runde 1: meinen Platz finden"),
        ("ja", "ラウンド1：自分の席を探す"),  # noqa: RUF001
    ],
)
def test_the_rounds_heading_reads_as_one_sentence_to_a_screen_reader(client, lang, sentence):
    event = scenes.round_paired(players=4).event
    page = in_language(client, lang).get(reverse("event_detail", args=[event.slug]))
    heading = re.search(r'<h2 id="finder-title">(.*?)</h2>', page.content.decode(), re.S)[1]
    hidden = re.search(r'<span class="visually-hidden">(.*?)</span>', heading)[1]
    assert hidden == sentence
    # The round's name shows once on the screen and is read once, in the sentence.
    assert re.search(r'<span aria-hidden="true">[^<]*1</span>', heading)
    assert lang == "en" or "find my seat" not in heading


# --- a store's message sent again --------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "sent", "on_its_way"),
    [
        ("de", "Testnachricht: schon gesendet, nichts zu tun.", "schon unterwegs, nichts zu tun."),
        ("ja", "テストメッセージ：送信済みです。何もしません。", "すでに送信中です。"),  # noqa: RUF001
    ],
)
def test_send_again_says_the_messages_state_in_a_sentence_of_its_own(
    organizer_client, organization, lang, sent, on_its_way
):
    """Not the state's label lowercased into "already %(status)s" (a waiting message read
    "schon wartet" in German, the label's verb put where an adjective goes)."""
    from notifications.models import Delivery

    kept = {"kind": "test", "channel": "webhook", "organization": organization, "target": ""}
    done = Delivery.objects.create(key="done", status="sent", **kept)
    queued = Delivery.objects.create(key="queued", status="queued", **kept)
    client = in_language(organizer_client, lang)
    base = f"/organizations/{organization.slug}/notifications/"
    assert sent in words(client.post(f"{base}{done.pk}/retry/", follow=True).content.decode())
    again = client.post(f"{base}{queued.pk}/retry/", follow=True).content.decode()
    assert on_its_way in words(again)


# --- the refusals a TO reads ---------------------------------------------------------------------


def test_lists_missing_before_round_1_or_the_top_cut_each_read_whole():
    from tournaments.errors import DecklistsMissing

    rows = [{"entry": 1, "player": "Gus", "why": "no list"}]
    with translation.override("de"):
        first = DecklistsMissing(rows).message
        cut = DecklistsMissing(rows * 2, top_cut=8).message
    assert first.endswith("oder paare Runde 1 und halte ein Problem mit der Deckliste fest.")
    assert cut.startswith("2 Spieler ohne legale Liste: Gus (no list); Gus (no list).")
    assert cut.endswith("oder starte den Top 8 und halte ein Problem mit der Deckliste fest.")
    with translation.override("ja"):
        first = DecklistsMissing(rows).message
        cut = DecklistsMissing(rows, top_cut=8).message
    assert first.endswith("デッキリストの問題を記録してラウンド1の対戦表を作ってください。")
    assert cut.endswith("デッキリストの問題を記録してトップ8を開始してください。")


@pytest.mark.parametrize(
    ("attribute", "de", "ja"),
    [
        ("entering", "Die Punkte für die Teilnahme können", "参加ポイントは負の数にできません。"),
        ("per_round", "Die Punkte pro Runde können", "ラウンドごとのポイントは"),
        ("per_bye", "Die Punkte pro Freilos können", "不戦勝ごとのポイントは"),
    ],
)
def test_a_negative_point_refusal_names_its_points_in_a_sentence_of_its_own(attribute, de, ja):
    from seasons.domain.rules import PointTable, SeasonError

    for lang, expected in (("de", de), ("ja", ja)):
        with translation.override(lang), pytest.raises(SeasonError) as refused:
            PointTable(event_type="Store night", **{attribute: -1})
        assert expected in refused.value.message, (lang, refused.value.message)
        assert refused.value.field == attribute


# --- the console counts its tables and pods in each language's plural -------------------------


def console_words(client, event, lang: str) -> str:
    from leagues.models import Role
    from tests.factories import organizer_of

    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    page = in_language(client, lang).get(reverse("event_run", args=[event.slug]))
    return words(page.content.decode())


@pytest.mark.parametrize(
    ("lang", "waiting"),
    [
        ("de", "Warte auf 4 Tische: 1, 2, 3, 4"),
        ("ja", "4件のテーブルを待っています：1, 2, 3, 4"),  # noqa: RUF001
        ("pl", "Czekamy na 4 stoły: 1, 2, 3, 4"),  # a noun put in had one plural for 2 and 5
    ],
)
def test_the_console_counts_the_tables_it_waits_for(client, lang, waiting):
    event = scenes.round_paired(players=8).event
    text = console_words(client, event, lang)
    assert waiting in text


@pytest.mark.parametrize(
    ("lang", "waiting", "every"),
    [
        ("de", "Warte auf 2 Pods", "Alle Pods"),
        ("ja", "2件のポッドを待っています", "すべてのポッド"),
    ],
)
def test_a_pod_events_console_has_its_own_sentences(client, lang, waiting, every):
    event = scenes.pods_round_in_play(players=8).event
    text = console_words(client, event, lang)
    assert waiting in text and every in text


@pytest.mark.parametrize(
    ("lang", "said"),
    [("de", "Tisch 2 hat jetzt 3 Extraminuten."), ("ja", "テーブル2の追加時間は3分になりました。")],
)
def test_a_time_extension_is_said_in_the_tables_own_sentence(client, lang, said):
    event = scenes.round_paired(players=8).event
    console_words(client, event, "en")  # logged in as the store's judge
    url = reverse("round_extension", args=[event.slug, 1])
    page = in_language(client, lang).post(url, {"table": "2", "minutes": "3"}, follow=True)
    assert said in words(page.content.decode())


def test_a_rounds_tables_are_counted_with_each_formats_plurals():
    from types import SimpleNamespace

    from tournaments.console.views.rounds import _tables

    pods, tables = (SimpleNamespace(play=SimpleNamespace(key=k)) for k in ("pods", "1v1"))
    with translation.override("pl"):
        assert [_tables(tables, n) for n in (1, 3, 5)] == ["1 stół", "3 stoły", "5 stołów"]
        assert _tables(pods, 2) == "2 pody"
    with translation.override("de"):
        assert (_tables(tables, 1), _tables(pods, 4)) == ("1 Tisch", "4 Pods")
    with translation.override("ja"):
        assert _tables(tables, 3) == "テーブル3件"


# --- "(s)" -------------------------------------------------------------------------------------


def test_an_imports_unknown_keys_are_counted_not_written_key_s():
    from leagues.domain.csvformat import parse_games_csv

    def said(cell: str, lang: str) -> str:
        text = f",2022-01-01,Ann,Bob\n{cell},2022-01-02,Ann,Bob,Cid,Dee\n"
        with translation.override(lang):
            problems = parse_games_csv(text).problems
        return next(p.message for p in problems if "colour" in p.message)

    one, two = '"{""colour"": 1}"', '"{""colour"": 1, ""hue"": 2}"'
    assert said(one, "en") == "unknown key: colour"
    assert said(two, "en") == "unknown keys: colour, hue"
    assert (said(one, "de"), said(two, "de")) == (
        "unbekannter Schlüssel: colour",
        "unbekannte Schlüssel: colour, hue",
    )
    assert said(two, "ja") == "不明なキー：colour, hue"  # noqa: RUF001


# --- the judges' sentences, one per format ---------------------------------------------------


@pytest.mark.parametrize(
    ("format", "lang", "said"),
    [
        ("1v1", "fr", "La table 1 est déjà en cours de vérification."),
        ("pods", "fr", "Le pod 1 est déjà en cours de vérification."),
        ("1v1", "pl", "Stół 1 jest już sprawdzany."),
        ("pods", "ja", "ポッド1はすでにチェック中です。"),
    ],
)
def test_a_judges_sentence_about_a_table_or_a_pod_is_written_whole(format, lang, said):
    """A table's sentence and a pod's (`Format.table_sentence`), not "%(noun)s 1" with the
    noun put in: French wants its article ("la table", "le pod"), Polish its case."""
    from judging.services.deck_checks import deck_check_start
    from tournaments.errors import AlreadyDone

    build = {"format": "pods", "swiss_rounds": 3} if format == "pods" else {"players": 4}
    table = scenes.round_paired(**build).round.tables.order_by("number").first()
    deck_check_start(table=table)
    with translation.override(lang), pytest.raises(AlreadyDone) as again:
        deck_check_start(table=table)
    assert str(again.value) == said


# --- lists and words with two meanings -------------------------------------------------------


def test_a_spanish_list_joins_its_last_name_with_e_before_an_i_sound():
    from core.translate import names_text

    with translation.override("es"):
        assert names_text(["Ana", "Bob"]) == "Ana y Bob"
        assert names_text(["Ana", "Bob", "Isabel"]) == "Ana, Bob e Isabel"
        assert names_text(["Ana", "Hilda"]) == "Ana e Hilda"
        assert names_text(["Ana", "Hielo"]) == "Ana y Hielo"  # "hie": the i glides
        assert names_text(["Ana", "Íñigo"]) == "Ana e Íñigo"
    with translation.override("it"):
        assert names_text(["Ana", "Isabel"]) == "Ana e Isabel"
    with translation.override("de"):
        assert names_text(["Ana", "Isabel"]) == "Ana und Isabel"


def test_commander_the_format_and_commander_the_card_are_two_words():
    """German keeps the format's name ("Commander") and calls the card "Kommandeur"."""
    from tournaments.forms import CommanderDeckForm
    from tournaments.models import Tournament

    with translation.override("de"):
        assert str(Tournament.DecklistFormat.COMMANDER.label) == "Commander"
        assert str(CommanderDeckForm().fields["commander"].label) == "Kommandeur"
    with translation.override("ja"):
        assert str(Tournament.DecklistFormat.COMMANDER.label) == "統率者戦"
        assert str(CommanderDeckForm().fields["commander"].label) == "統率者"

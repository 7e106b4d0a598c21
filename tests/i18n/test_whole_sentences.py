"""Sentences a translator sees whole (issue 45, "every store's language"): each was glued from
pieces translated apart (a heading and ": find my seat", a status word lowercased into
"already %(status)s", a verb phrase put into "or %(what)s and record a Decklist Problem", a
format's noun put into a count) and read wrongly in other languages. Each is read here in
German and Japanese, as the reader sees it."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

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

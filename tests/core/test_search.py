"""Names found and sorted in any script (core/search.py; issue 45)."""

import pytest

from core.search import fold, folded_order, name_contains, sort_key
from leagues.models import Player
from tests.factories import OrganizationFactory


def test_fold_drops_latin_accents_and_case_and_keeps_other_scripts():
    assert fold("Zoë") == fold("ZOE") == "zoe"
    assert fold("Łukasz  Żółć") == "lukasz zolc"
    assert fold("Ærøskøbing Straße") == "aeroskobing strasse"
    assert fold("ギルド") != fold("キルト")  # voicing marks kept
    assert fold("ギルド") == "ギルド"


def test_sort_key_puts_accented_names_beside_their_letters():
    names = ["Zoë", "Émile", "Emma", "eric", "Łukasz", "Lars", "山田"]
    assert sorted(names, key=sort_key) == ["Émile", "Emma", "eric", "Lars", "Łukasz", "Zoë", "山田"]


@pytest.mark.django_db
def test_the_database_folds_names_as_fold_folds_what_was_typed():
    store = OrganizationFactory()
    for name in ["Zoë Müller", "Łukasz Nowak", "Émile Zola", "Øyvind", "山田太郎", "Zoe Brown"]:
        Player.objects.create(organization=store, name=name)
    players = Player.objects.filter(organization=store)

    def found(query):
        return sorted(name_contains(players, "name", query).values_list("name", flat=True))

    assert found("zoe") == ["Zoe Brown", "Zoë Müller"]
    assert found("MULLER") == ["Zoë Müller"]
    assert found("lukasz") == ["Łukasz Nowak"]
    assert found("emile") == ["Émile Zola"]
    assert found("oyvind") == ["Øyvind"]
    assert found("山田") == ["山田太郎"]
    assert found("50%") == []  # typed text is no pattern
    ordered = list(players.order_by(*folded_order("name")).values_list("name", flat=True))
    assert ordered == [
        "Émile Zola",
        "Łukasz Nowak",
        "Øyvind",
        "Zoe Brown",
        "Zoë Müller",
        "山田太郎",
    ]


def test_an_ascii_name_folds_as_the_whole_fold_would():
    # fold's fast path for ASCII names (most of them) must agree with the full fold.
    from core.accents import without_latin_accents
    from core.search import SPELLED

    def whole(text):
        return " ".join(without_latin_accents(text.translate(SPELLED)).lower().split())

    for text in ["Ann  Marie ", "O'BRIEN-Smith", "Player 09", "".join(map(chr, range(32, 127)))]:
        assert fold(text) == whole(text)
    assert fold(None) == fold("") == ""


@pytest.mark.django_db
def test_find_my_seat_sorts_and_finds_names_as_a_person_reads_them(client):
    from django.urls import reverse

    from tests.scenes import round_paired

    scene = round_paired(players=["Zoë", "Zack", "Émile", "Emma", "eric", "Łukasz"])
    url = reverse("event_detail", kwargs={"slug": scene.event.slug})
    finder = [row.name for row in client.get(url).context["finder"]]
    assert finder == ["Émile", "Emma", "eric", "Łukasz", "Zack", "Zoë"]
    assert [row.name for row in client.get(url, {"q": "zoe"}).context["finder"]] == ["Zoë"]
    assert [row.name for row in client.get(url, {"q": "LUKASZ"}).context["finder"]] == ["Łukasz"]
    # The TO's lists of the event's players sort the same way.
    from tournaments.selectors.console import edit_choices

    assert [name for _, name in edit_choices(scene.event)] == finder

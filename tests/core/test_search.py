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

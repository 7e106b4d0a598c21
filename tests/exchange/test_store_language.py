"""The store's language (issue 45: its pages' and mails' language for those who chose none)
travels with its export; a document written before it imports as English, and a language
this site does not speak is refused where it is."""

import copy
import json

import pytest

from exchange.services import organization_import
from leagues.models import Organization
from tests.leagues.test_exchange import exported, refused  # noqa: F401 (exported: a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(exported):  # noqa: F811
    return json.loads(exported[1].read_text())


def test_the_stores_language_round_trips(document):
    document["organization"]["language"] = "fr"
    organization_import(data=document)
    assert Organization.objects.get().language == "fr"


def test_a_document_without_it_imports_in_english(document):
    old = copy.deepcopy(document)
    del old["organization"]["language"]
    organization_import(data=old)
    assert Organization.objects.get().language == ""


def test_a_language_the_site_does_not_speak_is_refused_where_it_is(document):
    document["organization"]["language"] = "xx"
    assert str(refused(document)).startswith("$.organization.language: ")

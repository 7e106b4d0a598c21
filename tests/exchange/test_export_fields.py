"""The export cannot drift from the models: every column of every exported model is in the
document, or named with its reason in `exchange.services.NOT_EXPORTED`; every model holding
an organization's data is exported or named in `NOT_EXPORTED_MODELS`.

The document is the round trip's (tests/leagues/test_exchange.py: a store using every
feature). Where each model's rows sit, and the key each relation is written under, is
written here by hand from the format: a new column fails until it is exported or named, and
a column exported with only its default value in the store fails until the store gives it
one (so the round trip, which re-exports after the import, proves the import reads it).
"""

import json

import pytest
from django.apps import apps
from django.conf import settings

from achievements.models import Achievement, Claim, Scoring
from exchange.services import NOT_EXPORTED, NOT_EXPORTED_MODELS
from judging.models import Penalty
from leagues.models import Game, GameResult, League, Membership, Organization, Player
from ratings.models import LeagueRating
from seasons.models import EventType, Season, SeasonEvent
from tests.leagues.test_exchange import exported  # noqa: F401 (the fixture)
from tournaments.models import (
    Entry,
    Registration,
    ReportConfirmation,
    RequestedBye,
    ResultReport,
    Round,
    Seat,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db

NESTED = object()  # the relation is the row the object sits in
ITSELF = object()  # the row is this one value (a requested bye: its round number)
EVENTS = "leagues[].tournaments[]"
TABLES = f"{EVENTS}.rounds[].tables[]"

# Model: (where its rows are, each `[]` a list; its relations' keys)
ROWS = {
    Organization: ("organization", {}),
    Membership: ("members[]", {"organization": NESTED}),
    Player: ("players[]", {"organization": NESTED}),
    League: ("leagues[]", {"organization": NESTED}),
    LeagueRating: ("leagues[].rating", {"league": NESTED}),
    Game: ("leagues[].games[]", {"league": NESTED}),
    GameResult: ("leagues[].games[].results[]", {"game": NESTED, "player": "player"}),
    Tournament: (EVENTS, {"league": NESTED, "series": "series"}),
    Entry: (f"{EVENTS}.entries[]", {"tournament": NESTED, "player": "player"}),
    RequestedBye: (
        f"{EVENTS}.entries[].requested_byes[]",
        {"entry": NESTED, "round_number": ITSELF},
    ),
    # A seated registration's entry is the entry of the same player.
    Registration: (
        f"{EVENTS}.registrations[]",
        {"tournament": NESTED, "player": "player", "entry": "player"},
    ),
    Round: (f"{EVENTS}.rounds[]", {"tournament": NESTED}),
    Table: (TABLES, {"round": NESTED, "winner": "winner", "game": "game"}),
    Seat: (f"{TABLES}.seats[]", {"table": NESTED, "round": NESTED, "entry": "player"}),
    ResultReport: (f"{TABLES}.reports[]", {"table": NESTED, "entry": "player"}),
    ReportConfirmation: (
        f"{TABLES}.reports[].confirmations[]",
        {"report": NESTED, "entry": "player"},
    ),
    Season: ("leagues[].seasons[]", {"league": NESTED}),
    EventType: ("leagues[].seasons[].event_types[]", {"season": NESTED}),
    SeasonEvent: (
        "leagues[].seasons[].events[]",
        {"season": NESTED, "tournament": "event", "event_type": "event_type"},
    ),
    Scoring: ("leagues[].achievement_scoring", {"league": NESTED}),  # null: no row
    Achievement: ("leagues[].achievements[]", {"league": NESTED}),
    Claim: (
        "leagues[].achievements[].claims[]",
        {"achievement": NESTED, "player": "player", "game": "game", "answered_by": "answered_by"},
    ),
    Penalty: (
        f"{EVENTS}.penalties[]",
        {"tournament": NESTED, "entry": "player", "round": "round_number", "table": "table_number"},
    ),
}


def rows_at(document, where: str) -> list:
    """The values at `where` ("a[].b": every b of every item of the list a)."""
    nodes = [document]
    for step in where.split("."):
        many = step.endswith("[]")
        nodes = [node[step.removesuffix("[]")] for node in nodes]
        if many:
            nodes = [item for node in nodes for item in node]
        nodes = [node for node in nodes if node is not None]  # a null object: no row
    return nodes


def label(model, field=None) -> str:
    return model.__name__ + (f".{field.name}" if field else "")


def columns(model):
    """The model's own columns but its id (the format never writes ids)."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@pytest.fixture
def document(exported):  # noqa: F811
    return json.loads(exported[1].read_text())


def test_every_column_is_exported_or_named_with_its_reason(document):
    missing, written_anyway, unused_relations = [], [], []
    for model, (where, relations) in ROWS.items():
        rows = rows_at(document, where)
        assert rows, f"the store has no {label(model)} to export: give it one"
        names = {f.name for f in columns(model)}
        unused_relations += [f"{label(model)}.{n}" for n in relations if n not in names]
        for field in columns(model):
            key = relations.get(field.name, field.name)
            if label(model, field) in NOT_EXPORTED:
                if key is field.name and any(
                    field.name in row for row in rows if isinstance(row, dict)
                ):
                    written_anyway.append(label(model, field))
            elif key is NESTED or key is ITSELF:
                continue
            elif not all(isinstance(row, dict) and key in row for row in rows):
                missing.append(label(model, field))
    assert missing == [], "export these, or name them with a reason in NOT_EXPORTED"
    assert written_anyway == [], "exported but named in NOT_EXPORTED"
    assert unused_relations == []


def test_every_exported_column_holds_a_value_other_than_its_default_somewhere(document):
    """Else the round trip cannot tell an import that drops the column from one that reads
    it: the store in tests/leagues/test_exchange.py must use it."""
    only_default = []
    for model, (where, relations) in ROWS.items():
        if model is Membership:
            continue  # written for the record, not imported
        rows = rows_at(document, where)
        for field in columns(model):
            key = relations.get(field.name, field.name)
            if label(model, field) in NOT_EXPORTED or key is NESTED or key is ITSELF:
                continue
            default = field.get_default() if field.has_default() else None
            default = default.isoformat() if hasattr(default, "isoformat") else default
            if all(row.get(key) in (default, str(default)) for row in rows):
                only_default.append(label(model, field))
    assert only_default == [], " ".join(only_default)


def test_the_list_of_what_is_not_exported_names_real_columns():
    known = {label(model, field) for model in ROWS for field in columns(model)}
    assert set(NOT_EXPORTED) - known == set()
    assert all(reason.strip() for reason in NOT_EXPORTED.values())


def _organization_models() -> set:
    """Every model whose rows belong to an organization: a chain of foreign keys (not
    through a user account) leads from it to `Organization`."""
    owned = {Organization}
    models = [m for m in apps.get_models() if m._meta.app_label not in ("auth", "admin")]
    grew = True
    while grew:
        grew = False
        for model in models:
            if model in owned:
                continue
            targets = {
                f.related_model
                for f in model._meta.concrete_fields
                if f.is_relation and f.related_model._meta.label != settings.AUTH_USER_MODEL
            }
            if targets & owned:
                owned.add(model)
                grew = True
    return owned


def test_every_model_of_an_organization_is_exported_or_named_with_its_reason():
    owned = {model.__name__ for model in _organization_models()}
    exported_models = {model.__name__ for model in ROWS}
    assert owned - exported_models - set(NOT_EXPORTED_MODELS) == set()
    assert set(NOT_EXPORTED_MODELS) - owned == set(), "named but no longer an organization's"
    assert set(NOT_EXPORTED_MODELS) & exported_models == set()

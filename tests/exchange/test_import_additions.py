"""What version 1 gained since it was first written (players' reports and confirmations, a
table's time extension, a deck's last change, the event's listing and series, the store's
profile) is optional on import: an older document still reads. A bad value says where."""

import copy
import json

import pytest

from exchange.services import organization_import
from leagues.models import Organization, Player
from tests.leagues.test_exchange import exported, refused  # noqa: F401 (exported: a fixture)
from tournaments.models import Entry, ReportConfirmation, ResultReport, Table, Tournament

pytestmark = pytest.mark.django_db

ADDED = {
    "organization": ("address", "time_zone", "logo"),
    "players": ("sees_private_leagues",),
    "tournaments": ("start_time", "place", "entry_fee", "fee_currency", "series"),
    "entries": ("deck_updated_at",),
    "tables": ("extra_minutes", "reports"),
}


@pytest.fixture
def document(exported):  # noqa: F811
    return json.loads(exported[1].read_text())


def events(data):
    return [t for league in data["leagues"] for t in league["tournaments"]]


def tables(data):
    return [table for t in events(data) for r in t["rounds"] for table in r["tables"]]


def sunday_pod(data, number: int) -> dict:
    event = next(t for t in events(data) if t["name"] == "Sunday Pods")
    return event["rounds"][0]["tables"][number - 1]


def test_a_document_written_before_the_additions_imports_with_their_defaults(document):
    old = copy.deepcopy(document)
    for key in ADDED["organization"]:
        del old["organization"][key]
    rows = {
        "players": old["players"],
        "tournaments": events(old),
        "entries": [e for t in events(old) for e in t["entries"]],
        "tables": tables(old),
    }
    for kind, keys in ADDED.items():
        for row in rows.get(kind, ()):
            for key in keys:
                del row[key]
    organization_import(data=old)
    store = Organization.objects.get()
    assert (store.address, store.time_zone, store.logo, store.logo_type) == ("", "", None, "")
    assert not Player.objects.filter(sees_private_leagues=False).exists()
    assert not Tournament.objects.exclude(place="").exists()
    assert not Tournament.objects.filter(series__isnull=False).exists()
    assert not Entry.objects.filter(deck_updated_at__isnull=False).exists()
    assert not Table.objects.filter(extra_minutes__gt=0).exists()
    assert not ResultReport.objects.exists() and not ReportConfirmation.objects.exists()


def test_reports_come_back_naming_the_new_entries(document):
    organization_import(data=document)
    pod = Table.objects.get(round__tournament__name="Sunday Pods", number=2)
    names = {seat.entry_id: seat.entry.player.name for seat in pod.seats.all()}
    by_name = {name: entry_id for entry_id, name in names.items()}
    exported_reports = sunday_pod(document, 2)["reports"]
    for report, written in zip(pod.reports.order_by("number"), exported_reports, strict=True):
        assert names[report.entry_id] == written["player"]
        winner = written["result"]["winner"]  # none for a pod's full order
        assert report.result["winner"] == (winner and by_name[winner])
        assert report.result["places"] == {
            str(by_name[name]): place for name, place in written["result"]["places"].items()
        }
    ordered = pod.reports.get(number=2)
    assert ordered.result["places"] == {
        str(by_name[name]): place for name, place in ordered_places(document).items()
    }


def ordered_places(document) -> dict[str, int]:
    return sunday_pod(document, 2)["reports"][1]["result"]["places"]


@pytest.mark.parametrize(
    "change, path, message",
    [
        (
            lambda d: sunday_pod(d, 2)["reports"][0]["result"].update(winner="Nobody"),
            r"$.leagues[0].tournaments[1].rounds[0].tables[1].reports[0].result",
            "names no player of the tournament's entries: 'Nobody'",
        ),
        (
            lambda d: sunday_pod(d, 2)["reports"][0]["confirmations"][0].update(player="Zed"),
            r"$.leagues[0].tournaments[1].rounds[0].tables[1].reports[0].confirmations[0].player",
            'no player "Zed" in $.players',
        ),
        (
            lambda d: d["organization"].update(time_zone="Mars/Olympus"),
            "$.organization.time_zone",
            "no time zone 'Mars/Olympus'",
        ),
        (
            lambda d: d["organization"].update(logo="not base64!"),
            "$.organization.logo",
            "must be an image as base64 text, or null",
        ),
        (
            lambda d: d["organization"].update(logo="PHN2Zy8+"),  # "<svg/>"
            "$.organization.logo",
            "This file is not a PNG, JPEG, GIF or WebP image (SVG is not accepted).",
        ),
        (
            lambda d: events(d)[-1].update(series="no-such-event"),
            "$.leagues[1].tournaments[0].series",
            "no first event 'no-such-event' of a series in this league",
        ),
    ],
)
def test_a_bad_addition_is_refused_where_it_is(document, change, path, message):
    change(document)
    assert str(refused(document)) == f"{path}: {message}"

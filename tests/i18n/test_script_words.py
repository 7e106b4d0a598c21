"""The scripts' words (issue 45): every script reads them through the one fallback,
static/guildhall/i18n.js (`window.GuildhallI18n`), which each page loads with its language's
catalogue (`{% js_catalog %}`) before its scripts, and which the service worker keeps for the
outage.

The fallback and the catalogue run here in Node (its `vm`, a bare global for `window`), as a
browser runs them: the catalogue the site serves for German and Japanese, or none (the phone
offline without it), then i18n.js; the sentences the scripts write are read back from it."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from leagues.models import Role
from tests import scenes
from tests.factories import organizer_of
from tournaments.models import Table
from tournaments.selectors.reports import walk_in_token

ROOT = Path(__file__).resolve().parent.parent.parent
WORDS = ROOT / "core" / "static" / "guildhall" / "i18n.js"
SCRIPTS = {
    "tournaments/clock.js": ROOT / "tournaments/static/tournaments/clock.js",
    "tournaments/console.js": ROOT / "tournaments/static/tournaments/console.js",
    "tournaments/offline_pair.js": ROOT / "tournaments/static/tournaments/offline_pair.js",
    "tournaments/offline/offline.js": ROOT / "tournaments/static/tournaments/offline/offline.js",
}

RUN = r"""
const vm = require("vm");
const [catalogue, words, calls] = JSON.parse(require("fs").readFileSync(0, "utf8"));
const page = vm.createContext({});
page.window = page;
if (catalogue) vm.runInContext(catalogue, page);
vm.runInContext(words, page);
page.calls = calls;
const said = vm.runInContext(`calls.map((c) => {
  const w = window.GuildhallI18n;
  if (c[0] === "n") return w.fill(w.ngettext(c[1], c[2], c[3]), c[4]);
  if (c[0] === "p") return w.fill(w.pgettext(c[1], c[2]), c[3]);
  if (c[0] === "note") return w.note(c[1]);
  return w.fill(w.gettext(c[1]), c[2]);
})`, page);
process.stdout.write(JSON.stringify(said));
"""


def say(calls, catalogue: str | None = None) -> list[str]:
    """Each call (`("g", text, values)`, `("n", singular, plural, n, values)`, `("p", context,
    text, values)`, `("note", data)`: GuildhallI18n.note) as the page's script writes it,
    with `catalogue` (a /jsi18n/ answer) loaded before i18n.js, or none."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed (make assets installs it)")
    given = json.dumps([catalogue, WORDS.read_text(encoding="utf-8"), calls])
    done = subprocess.run(
        [node, "-e", RUN], input=given, capture_output=True, text=True, check=True, timeout=30
    )
    return json.loads(done.stdout)


def catalogue(client, lang: str) -> str:
    response = client.get(reverse("js_catalog", args=[lang]))
    assert response.status_code == 200
    return response.content.decode()


WAITING = ("n", "%(count)s result waiting", "%(count)s results waiting")


def test_without_the_catalogue_the_scripts_write_english_with_english_plurals():
    said = say(
        [
            ("g", "Offline since %(time)s", {"time": "21:14"}),
            (*WAITING, 1, {"count": 1}),
            (*WAITING, 3, {"count": 3}),
            ("p", "a round's state", "complete", {}),
        ]
    )
    assert said == ["Offline since 21:14", "1 result waiting", "3 results waiting", "complete"]


@pytest.mark.django_db
def test_with_the_catalogue_they_write_the_pages_language_and_its_plurals(client):
    calls = [("g", "Offline since %(time)s", {"time": "21:14"}), (*WAITING, 3, {"count": 3})]
    assert say(calls, catalogue(client, "de")) == [
        "Offline seit 21:14",
        "3 Ergebnisse warten",
    ]
    assert say(calls, catalogue(client, "ja")) == ["21:14からオフライン", "送信待ちの結果3件"]
    # Polish's three forms, which no English fallback could choose.
    pl = catalogue(client, "pl")
    assert [say([(*WAITING, n, {"count": n})], pl)[0] for n in (2, 5)] == [
        "2 wyniki czekają",
        "5 wyników czeka",
    ]


def test_each_script_reads_its_words_through_the_one_fallback():
    for name, path in SCRIPTS.items():
        text = path.read_text(encoding="utf-8")
        assert "window.GuildhallI18n" in text, name
        # No copy of its own: Django's globals read directly, or an English stand-in.
        copy = re.search(r"window\.(n|p)?gettext|window\.interpolate|\binterpolate\(", text)
        assert copy is None, name


@pytest.fixture
def night():
    event = scenes.pods_round_in_play(round_minutes=80).event
    return event


def scripts(page: str) -> list[str]:
    """The page's scripts in the order they run (all deferred or modules), by their address."""
    return [re.sub(r"\?.*", "", src) for src in re.findall(r'<script[^>]*\ssrc="([^"]+)"', page)]


@pytest.mark.django_db
def test_every_page_loads_the_words_before_the_scripts_that_say_something(client, night):
    event = night
    entry = Table.objects.get(round__tournament=event, number=1).seats.first().entry
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    pages = {
        "console": reverse("event_run", args=[event.slug]),
        "pairing on the phone": reverse("offline_pair", args=[event.slug]),
        "projector": reverse("event_projector", args=[event.slug]),
        "judges' desk": reverse("judge_desk", args=[event.slug]),
    }
    shown = {name: client.get(url).content.decode() for name, url in pages.items()}
    client.logout()
    player = client.get(reverse("my_event_link", args=[event.slug, walk_in_token(entry)]))
    shown["player's page"] = player.content.decode()
    for name, page in shown.items():
        order = scripts(page)
        said = [i for i, src in enumerate(order) if any(src.endswith(s) for s in SCRIPTS)]
        assert said, (name, order)
        words = [i for i, src in enumerate(order) if src.endswith("guildhall/i18n.js")]
        catalogues = [i for i, src in enumerate(order) if "/jsi18n/" in src]
        assert len(words) == len(catalogues) == 1, (name, order)  # once each
        assert catalogues[0] < words[0] < min(said), (name, order)


REPORT = "Your report (%(result)s, tapped at %(time)s) waits to be sent"
CONFIRMATION = "Your confirmation (%(result)s, tapped at %(time)s) waits to be sent"
NOT_STORED = "Your report (%(result)s, tapped offline at %(time)s) was not stored: %(reason)s"


@pytest.mark.django_db
def test_a_players_report_on_the_phone_is_one_sentence_per_kind_in_each_language(client):
    """offline.js: a report and a confirmation each have their sentence (the English word put
    into "Your %(report)s" read wrongly elsewhere); what it says is the value."""
    values = {"result": "Ann \u2013 Bob 2-0", "time": "21:14", "reason": "Zu spät."}
    calls = [("g", REPORT, values), ("g", CONFIRMATION, values), ("g", NOT_STORED, values)]
    assert say(calls, catalogue(client, "de")) == [
        "Deine Meldung (Ann \u2013 Bob 2-0, getippt um 21:14) wartet auf das Senden",
        "Deine Bestätigung (Ann \u2013 Bob 2-0, getippt um 21:14) wartet auf das Senden",
        "Deine Meldung (Ann \u2013 Bob 2-0, offline getippt um 21:14) wurde nicht gespeichert: "
        "Zu spät.",
    ]
    assert say(calls, catalogue(client, "ja")) == [
        "あなたの報告（Ann \u2013 Bob 2-0、21:14にタップ）は送信待ちです",  # noqa: RUF001
        "あなたの確認（Ann \u2013 Bob 2-0、21:14にタップ）は送信待ちです",  # noqa: RUF001
        "あなたの報告（Ann \u2013 Bob 2-0、オフラインで21:14にタップ）は"  # noqa: RUF001
        "保存されませんでした：Zu spät.",  # noqa: RUF001
    ]
    script = SCRIPTS["tournaments/offline/offline.js"].read_text(encoding="utf-8")
    assert all(f'gettext("{english}")' in script for english in (REPORT, CONFIRMATION))
    assert 'gettext("Your %(report)s' not in script


POD_WAIT = (
    "waiting for the result of pod %(tables)s (enter it on the console)",
    "waiting for the results of %(count)s pods: %(tables)s (enter them on the console)",
)
TABLE_WAIT = (
    "waiting for the result of table %(tables)s (enter it on the console)",
    "waiting for the results of %(count)s tables: %(tables)s (enter them on the console)",
)


@pytest.mark.django_db
def test_the_pairing_phone_counts_the_tables_it_waits_for_in_each_languages_plural(client):
    """offline_pair.js: a pod event's sentence and a 1v1 event's, each with its plural forms
    (the noun put into "the results of %(noun)s %(tables)s" had neither gender nor count)."""
    one, three = {"count": 1, "tables": "4"}, {"count": 3, "tables": "3, 5, 7"}
    calls = [("n", *POD_WAIT, 1, one), ("n", *TABLE_WAIT, 3, three)]
    assert say(calls, catalogue(client, "de")) == [
        "warte auf das Ergebnis von Pod 4 (trag es in der Konsole ein)",
        "warte auf die Ergebnisse von 3 Tischen: 3, 5, 7 (trag sie in der Konsole ein)",
    ]
    assert say(calls, catalogue(client, "ja")) == [
        "ポッド4の結果を待っています（1件、コンソールで入力してください）",  # noqa: RUF001
        "テーブル3, 5, 7の結果を待っています（3件、コンソールで入力してください）",  # noqa: RUF001
    ]
    five = {"count": 5, "tables": "1, 2, 3, 4, 6"}
    assert say([("n", *TABLE_WAIT, 5, five)], catalogue(client, "pl")) == [
        "czekamy na wyniki 5 stołów: 1, 2, 3, 4, 6 (wprowadź je w konsoli)"
    ]
    assert say([("n", *POD_WAIT, 1, one), ("g", "Pod %(number)s", {"number": 2})]) == [
        "waiting for the result of pod 4 (enter it on the console)",
        "Pod 2",
    ]


@pytest.mark.django_db
def test_the_phones_own_pairing_writes_its_warnings_and_refusals_in_the_pages_language(client):
    """offline_pair.js: the pure domain's warnings come out of Pyodide before translation
    (`Note.data`) and its refusals as template and values; the catalogue carries the Python
    catalogue's words for them (core.hooks.script_words), so a German or Japanese phone reads
    them in its language with the Wi-Fi down, as the console reads the server's."""
    from tournaments.domain.pairing import pair_round
    from tournaments.domain.texts import note_data

    from ..tournaments.domain.tables import W, bye

    history = [(W(1, 2, 1), bye(3)), (W(1, 3, 1), bye(2)), (W(2, 3, 2), bye(1))]
    names = {1: "Ann", 2: "Bob", 3: "Zoë"}
    paired = pair_round(
        players=[1, 2, 3], history=history, ranking=[1, 2, 3], points={1: 6, 2: 3, 3: 0},
        seed=1, round_number=4, name=names.__getitem__,
    )  # fmt: skip
    rematch = note_data(paired.warnings[1])
    ((a, b),) = paired.tables
    refusal = {  # pair_offline's answer for two tables without a result, as the page reads it
        "msgid": "No result yet at table %(tables)s.",
        "plural": "No result yet at tables %(tables)s.",
        "count": 2,
        "params": {"tables": "3, 5"},
    }
    calls = [("note", rematch), ("note", refusal)]

    assert say(calls, catalogue(client, "de")) == [
        f"1 Rematch ließ sich nicht vermeiden: {names[a]} gegen {names[b]} "
        "(bisherige Begegnungen: 1).",
        "Noch kein Ergebnis an den Tischen 3, 5.",
    ]
    assert say(calls, catalogue(client, "ja"))[1] == "テーブル3, 5にまだ結果がありません。"
    # Without the catalogue: the English the domain wrote.
    assert say(calls) == [paired.warnings[1], "No result yet at tables 3, 5."]
    # Two rematches: the list joined the reader's way (French " ; ", Japanese "、").
    robin = [(W(1, 2, 1), W(3, 4, 3)), (W(1, 3, 1), W(2, 4, 2)), (W(1, 4, 1), W(2, 3, 2))]
    four = pair_round(
        players=[1, 2, 3, 4], history=robin, ranking=[1, 2, 3, 4], points={1: 9, 2: 6, 3: 3},
        seed=1, round_number=4,
    )  # fmt: skip
    (twice,) = [note_data(w) for w in four.warnings]
    assert twice["params"]["tables"]["list"], twice  # the rematches, a list of notes
    french = say([("note", twice)], catalogue(client, "fr"))[0]
    assert french.count(" ; ") == 1 and french.startswith("2 "), french
    assert say([("note", twice)], catalogue(client, "ja"))[0].count("、") == 1
    # A round kept by an earlier version holds its warnings as text: shown as they are.
    assert say([("note", "1 rematch could not be avoided: 1 v 2 (met before: 1).")]) == [
        "1 rematch could not be avoided: 1 v 2 (met before: 1)."
    ]

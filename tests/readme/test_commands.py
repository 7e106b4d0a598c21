"""Every management command the README and docs/ name, run once as typed, on real data.

Each runs as `python manage.py ...` in a subprocess against the test database (committed data:
`transaction=True`), in the order a store would use them: load the demo, export its games,
import them into a new league, rebuild its ratings, print the rankings in every format (the
copy must rank exactly like the original), make, list and revoke an API token, export the
store and import it under new slugs (same standings), simulate an event and pair its next
round, create the first administrator. The first test reads the README and docs/*.md and fails
when they name a command that no test here (or the one named in COVERED_ELSEWHERE) exercises,
or when docs/operations.md's table of commands leaves one out.
"""

import csv
import io
import json
import os
import re
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from leagues.models import League, Organization
from ratings import job_kinds
from tests.readme.conftest import ROOT
from tests.readme.docs import document_text
from tournaments.models import Tournament

pytestmark = pytest.mark.readme

EXERCISED = {
    "seed_demo",
    "seed_event",
    "export_games",
    "import_games",
    "recalculate_ratings",
    "rankings",
    "api_token",
    "export_organization",
    "import_organization",
    "simulate_tournament",
    "pair_pods",
    "createsuperuser",
    "db_worker",
    "load_cards",
    "check_decklist",
    "match_decks",
}
# Named by the deployment steps (docs/operations.md) and run elsewhere in the suite.
COVERED_ELSEWHERE = {
    "migrate": "every test database and `make run` (tests/readme/test_make_run.py)",
    "collectstatic": "bench/load.py serves the collected files (tests/readme/test_bench.py)",
    "check": "tests/config/test_settings.py (check --deploy)",
    "createcachetable": "migration core 0001 runs it on every test database (tests/cache)",
}


def test_every_command_the_docs_name_is_exercised():
    text = document_text()  # the README and docs/*.md
    named = set(re.findall(r"manage\.py\s+(\w+)", text))
    operations = (ROOT / "docs" / "operations.md").read_text()
    table = operations.split("## Management commands", 1)[1].split("\n## ", 1)[0]
    in_table = set(re.findall(r"`python manage\.py (\w+)", table))
    assert in_table == EXERCISED, in_table ^ EXERCISED  # the table lists every one, and runs
    assert named <= EXERCISED | set(COVERED_ELSEWHERE), named - EXERCISED - set(COVERED_ELSEWHERE)


@pytest.fixture
def manage(transactional_db):
    """`python manage.py ...` on the test database; returns stdout, fails on a non-zero exit."""
    base, _, _ = os.environ["DATABASE_URL"].partition("?")
    query = os.environ["DATABASE_URL"][len(base) :]
    url = f"{base.rpartition('/')[0]}/{connection.settings_dict['NAME']}{query}"
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": url}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)

    def run(*args: str, stdin: str | None = None, ok: bool = True):
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if not ok:
            return result
        assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
        return result.stdout

    return run


def rankings(manage, league: str) -> list[dict]:
    text = manage("rankings", "--league", league, "--format", "csv")
    return list(csv.DictReader(io.StringIO(text)))


def test_the_readme_commands_on_the_demo_store(manage, tmp_path):
    # seed_demo: the demo store once; a second run changes nothing.
    manage("seed_demo")
    assert "already loaded" in manage("seed_demo")
    demo = League.objects.get(slug="friday-commander")
    assert demo.games.count() == 300
    assert demo.organization.players.count() == 40

    # export_games, then import_games into a league it creates.
    games_csv = tmp_path / "games.csv"
    manage("export_games", "--league", "friday-commander", "--output", str(games_csv))
    rows = [r for r in csv.reader(games_csv.read_text().splitlines()) if r and r[1][:1].isdigit()]
    assert len(rows) == 300
    out = manage(
        "import_games", str(games_csv), "--league", "friday-copy",
        "--organization", "dragons-den", "--rating-system", "guildmaster",
    )  # fmt: skip
    assert "(friday-copy) in Dragon's Den Games" in out
    assert "Imported 300 games" in out
    assert "New players: none." in out
    copy = League.objects.get(slug="friday-copy")
    assert copy.games.count() == 300

    # db_worker runs what is queued: the lab of the copy, made a job here, then exits (--batch).
    from jobs.models import Job
    from jobs.services import job_start

    lab = job_start(kind=job_kinds.LAB, league=copy, key="readme-lab")
    manage("db_worker", "--batch", "--no-reload", "--no-startup-delay")
    lab.refresh_from_db()
    assert lab.status == Job.Status.DONE and lab.result["games"] == 300

    # recalculate_ratings rebuilds the copy's ledger; the copy ranks exactly like the original.
    manage("recalculate_ratings", "--league", "friday-copy")
    original = rankings(manage, "friday-commander")
    assert list(original[0]) == ["rank", "player", "rating", "games"]
    assert len(original) == 40
    assert rankings(manage, "friday-copy") == original

    # rankings in every format say what the csv says.
    table = manage("rankings", "--league", "friday-commander", "--format", "table").splitlines()
    assert table[0].split() == ["rank", "player", "rating", "games"]
    assert [line.split()[-2] for line in table[1:]] == [row["rating"] for row in original]
    as_json = json.loads(manage("rankings", "--league", "friday-commander", "--format", "json"))
    assert [(e["player"], str(e["rating"]), str(e["games"])) for e in as_json] == [
        (row["player"], row["rating"], row["games"]) for row in original
    ]
    guildmaster = manage("rankings", "--league", "friday-commander", "--format", "guildmaster")
    assert guildmaster.splitlines() == [
        f"{n} --- {row['player']} --- {row['rating']}" for n, row in enumerate(original, 1)
    ]

    # api_token create / list / revoke.
    token = manage("api_token", "create", "--organization", "dragons-den", "--name", "scorebot")
    token = token.strip().splitlines()[-1]
    assert len(token) >= 32
    listing = manage("api_token", "list", "--organization", "dragons-den")
    assert "scorebot" in listing
    prefix = re.search(r"\(([^)…]+)…\)|#(\d+)", listing)
    assert prefix is not None, listing
    revoked = manage("api_token", "revoke", prefix.group(1) or prefix.group(2))
    assert "Revoked API token" in revoked
    assert "already revoked" in manage("api_token", "revoke", prefix.group(1) or prefix.group(2))

    # export_organization, then import_organization of the same store under new slugs.
    exported = tmp_path / "store.json"
    manage("export_organization", "--organization", "dragons-den", "--output", str(exported))
    document = json.loads(exported.read_text())
    assert (document["format"], document["version"]) == ("guildhall-organization", 1)
    refused = manage("import_organization", str(exported), ok=False)
    assert refused.returncode != 0
    assert "dragons-den" in refused.stderr  # the store exists: refused, names the slug

    def renamed(node):
        if isinstance(node, dict):
            return {
                k: (f"{v}-copy" if k == "slug" and isinstance(v, str) else renamed(v))
                for k, v in node.items()
            }
        if isinstance(node, list):
            return [renamed(v) for v in node]
        return node

    document = renamed(document)
    document["organization"]["name"] = "Dragon's Den Games (copy)"
    copied = tmp_path / "store-copy.json"
    copied.write_text(json.dumps(document))
    manage("import_organization", "-", stdin=copied.read_text())
    assert Organization.objects.filter(slug="dragons-den-copy").exists()
    assert rankings(manage, "friday-commander-copy") == original

    # simulate_tournament writes an event; pair_pods pairs the next round of a simulated one.
    event = tmp_path / "event.json"
    manage(
        "simulate_tournament", "--players", "16", "--format", "1v1", "--rounds", "4",
        "--seed", "3", "--output", str(event),
    )  # fmt: skip
    assert len(json.loads(event.read_text())["rounds"]) == 4
    pods = manage(
        "simulate_tournament", "--format", "pods", "--players", "16", "--rounds", "2",
        "--seed", "1", "--output", "-",
    )  # fmt: skip
    pods_next = [p["players"] for p in json.loads(manage("pair_pods", stdin=pods))["placements"]]
    assert sorted(player for pod in pods_next for player in pod) == list(range(1, 17))
    assert sorted(len(pod) for pod in pods_next) == [4, 4, 4, 4]

    # seed_event: a demo event with rounds played and the next one open; a taken slug refused.
    manage("seed_event", "--players", "12", "--format", "pods", "--rounds-played", "1")
    refused = manage(
        "seed_event", "--players", "12", "--format", "pods", "--rounds-played", "1", ok=False
    )
    assert refused.returncode != 0 and "--replace" in refused.stderr
    assert Tournament.objects.get(slug="demo-pods-12").rounds.count() == 2

    # createsuperuser: the first administrator, without a prompt.
    manage("createsuperuser", "--no-input", "--username", "admin", "--email", "a@example.com")
    assert get_user_model().objects.get(username="admin").is_superuser


def test_the_card_commands_as_typed(manage, tmp_path):
    """load_cards (the shipped sample, twice: updated in place), check_decklist (exit 1 with
    each problem's line and rule, 0 for a legal list, --json), match_decks (after seed_demo:
    the demo's decks matched or listed)."""
    sample = "cards/fixtures/sample-oracle-cards.json"
    assert "50 new" in manage("load_cards", sample)
    assert "0 new, 50 updated" in manage("load_cards", sample)
    bad = tmp_path / "bad.txt"
    bad.write_text("Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\nDeck\n1 Mana Crypt\n")
    result = manage("check_decklist", "--format", "commander", str(bad), ok=False)
    assert result.returncode == 1 and "line 5: [banned] Mana Crypt is banned" in result.stdout
    result = manage("check_decklist", "--format", "commander", str(bad), "--json", ok=False)
    assert result.returncode == 1 and json.loads(result.stdout)["legal"] is False
    good = tmp_path / "good.txt"
    good.write_text("4 Lightning Bolt\n56 Mountain\n")
    assert "modern: legal." in manage("check_decklist", "--format", "modern", str(good))
    manage("seed_demo")
    assert manage("match_decks").startswith("Matched ")

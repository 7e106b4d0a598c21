"""The README and docs/ as a map a person follows: every relative link lands on a file and a
heading that exist, and every command in a runnable block (```sh) is run, here or by a named
test. A command no test runs belongs in a ```text block (shown, not run).

Runnable commands:
- `make T`: T is a Makefile target, and MAKE_RUN_BY says which test runs it;
- `python manage.py C ...`: its arguments parse with C's own parser; C needs no database (the
  block is run here, below) or test_commands.py runs it (EXERCISED, COVERED_ELSEWHERE);
- `gunicorn ...`: tests/config/test_gunicorn.py starts that line's configuration;
- `export ...`: the environment of the lines after it.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

from tests.readme import docs
from tests.readme.conftest import ROOT
from tests.readme.test_commands import COVERED_ELSEWHERE, EXERCISED

pytestmark = pytest.mark.readme

PAGES = ("organizers", "players", "rules", "operations")
README_LINES_AT_MOST = 160  # a map, not the territory (it was 640 lines)

MAKE_RUN_BY = {
    "run": "tests/readme/test_make_run.py: a fresh clone served, crawled and stopped",
    "assets": "tests/readme/test_make_run.py: `make run` runs it first in the fresh clone",
    "test": "CI: this suite is what `make test` runs, after `make lint` and `make audit-test`",
    "test-fast": "tests/readme/test_fast_lane.py reads its pytest line; its tests are make test's",
}
# Commands that touch no database: their blocks are run here as a reader types them.
NO_DATABASE = {"simulate_tournament", "pair_pods"}


def test_the_readme_is_a_map_onto_the_docs():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= README_LINES_AT_MOST
    for page in PAGES:
        assert (ROOT / "docs" / f"{page}.md").is_file(), page
        assert f"](docs/{page}.md" in readme, f"the README does not link docs/{page}.md"
    headings = [line for line in readme.splitlines() if line.startswith("## ")]
    assert headings[:3] == ["## What it does", "## The two commands", "## Run a Friday night"]


def test_every_make_target_is_in_the_operations_table():
    operations = (ROOT / "docs" / "operations.md").read_text()
    table = operations.split("## The make targets", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `make ([\w-]+)` \|", table, re.MULTILINE))
    assert listed == docs.makefile_targets(), listed ^ docs.makefile_targets()


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in docs.relative_links(path):
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no file {linked}")
        elif anchor and (linked.suffix != ".md" or anchor not in docs.anchors(linked)):
            broken.append(f"{target}: no heading #{anchor} in {linked.name}")
    return broken


@pytest.mark.parametrize("path", docs.documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path):
    assert docs.relative_links(path) or path.name != "README.md"  # the README links somewhere
    assert broken_links(path) == []


def test_the_link_check_finds_a_broken_link(tmp_path):
    """The check itself: a missing file and a missing heading are both reported."""
    (tmp_path / "other.md").write_text("# Title\n\n## A heading: with `code`\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-heading-with-code) [ok](#here) [gone](missing.md) "
        "[bad anchor](other.md#nowhere) [site](https://example.com) `[code](not-a-link.md)`\n"
        "## Here\n"
    )
    assert docs.relative_links(page) == [
        "other.md#a-heading-with-code",
        "#here",
        "missing.md",
        "other.md#nowhere",
    ]
    assert [problem.partition(":")[0] for problem in broken_links(page)] == [
        "missing.md",
        "other.md#nowhere",
    ]


def runnable_commands() -> list[docs.Command]:
    return [command for path in docs.documents() for command in docs.commands_in(path)]


def manage_command(command: docs.Command) -> tuple[str, list[str]] | None:
    words = list(command.words)
    if words[:2] in (["python", "manage.py"], ["python3", "manage.py"]) and len(words) > 2:
        return words[2], words[3:]
    return None


def who_runs(command: docs.Command) -> str | None:
    words = command.words
    if words[0] == "export":
        return "the environment of the lines after it"
    if words[0] == "make":
        target = next((w for w in words[1:] if "=" not in w and not w.startswith("-")), "")
        return MAKE_RUN_BY.get(target) if target in docs.makefile_targets() else None
    if words[0] == "gunicorn":
        return "tests/config/test_gunicorn.py"
    if managed := manage_command(command):
        name = managed[0]
        if name in NO_DATABASE:
            return "test_the_blocks_that_need_no_database_run_as_written (here)"
        if name in EXERCISED:
            return "tests/readme/test_commands.py"
        return COVERED_ELSEWHERE.get(name)
    return None


def test_the_docs_have_runnable_blocks():
    commands = runnable_commands()
    assert {" ".join(c.words[:2]) for c in commands} >= {"make run", "make test", "make test-fast"}
    assert any(c.words[0] == "gunicorn" for c in commands)


def test_every_command_in_a_runnable_block_is_run_by_a_test():
    unrun = [str(command) for command in runnable_commands() if who_runs(command) is None]
    assert unrun == [], "run these in a test, or show them in a ```text block"


def test_the_manage_py_lines_parse_with_their_commands():
    """A renamed or removed option fails here, not in a reader's terminal."""
    commands = get_commands()
    for command in runnable_commands():
        if (managed := manage_command(command)) is None:
            continue
        name, args = managed
        assert name in commands, str(command)
        parser = load_command_class(commands[name], name).create_parser("manage.py", name)
        parser.parse_args(args)  # exits (SystemExit) on an unknown option


def blocks_without_a_database() -> list[tuple[str, str]]:
    found = []
    for path in docs.documents():
        name = path.relative_to(ROOT).as_posix()
        commands = docs.commands_in(path)
        for block in dict.fromkeys(c.block for c in commands):
            mine = [c for c in commands if c.block == block]
            managed = [manage_command(c) for c in mine if c.words[0] != "export"]
            if managed and all(m and m[0] in NO_DATABASE for m in managed):
                found.append((name, block))
    return found


def test_the_blocks_that_need_no_database_run_as_written():
    blocks = blocks_without_a_database()
    assert blocks, "docs/operations.md shows simulate_tournament | pair_pods"
    removed = {"DATABASE_URL", "TEST_DATABASE_URL", "DEBUG", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in removed}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    for where, block in blocks:
        result = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", block],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, f"{where}:\n{block}\n{result.stderr[-3000:]}"
        assert result.stdout.strip(), f"{where}: printed nothing"

"""The shape of the house: the apps' migrations depend one way, as their imports do.

The imports are checked by import-linter (`make lint`); migrations are not Python imports of
each other, so this test reads their dependency graph and refuses a cycle between apps.
"""

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from django.db.migrations.loader import MigrationLoader

OURS = {"audit", "jobs", "leagues", "notifications", "ratings", "seasons", "tournaments"}


def app_dependencies() -> dict[str, set[str]]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    edges: dict[str, set[str]] = {app: set() for app in OURS}
    for (app, _name), migration in loader.disk_migrations.items():
        if app not in OURS:
            continue
        for dep_app, _dep in migration.dependencies:
            if dep_app in OURS and dep_app != app:
                edges[app].add(dep_app)
    return edges


def test_no_migration_cycle_between_apps():
    edges = app_dependencies()
    done: set[str] = set()

    def visit(app: str, path: tuple[str, ...]) -> None:
        assert app not in path, f"migration cycle: {' -> '.join((*path, app))}"
        if app in done:
            return
        for dep in sorted(edges[app]):
            visit(dep, (*path, app))
        done.add(app)

    for app in sorted(OURS):
        visit(app, ())


def test_audit_sits_below_the_game_apps():
    edges = app_dependencies()
    assert edges["audit"] <= {"leagues"}  # its entries belong to an organization (a string FK)
    assert "audit" not in edges["leagues"] | edges["tournaments"]
    assert "tournaments" not in edges["leagues"] | edges["ratings"]


# Templates: what a template loads, includes or extends goes one way, as the imports do.

ROOT = Path(__file__).resolve().parent.parent
ROOMS = {"console": {"public", "registration", "reports", "offline"}}  # a room: the rooms below
# A page of the project-wide `templates/` folder that is not a base template: whose it is.
PROJECT_PAGES = {"style_guide.html": "config"}  # config/style_guide.py draws it (development)


@dataclass(frozen=True)
class Owner:
    app: str
    room: str | None = None

    def __str__(self) -> str:
        return f"{self.app}.{self.room}" if self.room else self.app


def floors() -> dict[str, int]:
    """Each app's floor, from pyproject's layers contract (higher: a bigger number)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "layers")
    layers = contract["layers"]
    return {
        app.strip(): len(layers) - i for i, layer in enumerate(layers) for app in layer.split("|")
    }


def template_files() -> dict[Path, tuple[str, Owner]]:
    """Every template file: its name (as a loader finds it) and whose it is. An app's
    `templates/` and `jinja2/` folders and a room's `templates/` folder are its own; the
    project's `templates/` folder (the base templates and the components) is core's."""
    found = {}
    for app in floors():
        for folder in (ROOT / app).glob("**/templates"):
            parts = folder.relative_to(ROOT).parts
            owner = Owner(app, parts[1] if len(parts) == 3 else None)
            found.update(
                {
                    p: (p.relative_to(folder).as_posix(), owner)
                    for p in folder.rglob("*")
                    if p.is_file()
                }
            )
        folder = ROOT / app / "jinja2"
        found.update(
            {
                p: (p.relative_to(folder).as_posix(), Owner(app))
                for p in folder.rglob("*")
                if p.is_file()
            }
        )
    folder = ROOT / "templates"
    for path in folder.rglob("*"):
        if path.is_file():
            name = path.relative_to(folder).as_posix()
            found[path] = (name, Owner(PROJECT_PAGES.get(name, "core")))
    return found


def tag_libraries() -> dict[str, Owner]:
    """Each of our tag libraries (`{% load name %}`) and whose it is."""
    libraries = {}
    for app in floors():
        for module in (ROOT / app).glob("**/templatetags/*.py"):
            parts = module.relative_to(ROOT).parts
            if module.stem != "__init__":
                libraries[module.stem] = Owner(app, parts[1] if len(parts) == 4 else None)
    return libraries


COMMENT = re.compile(r"{#.*?#}|{%-?\s*comment\b.*?%}.*?{%-?\s*endcomment\s*-?%}", re.S)
LOAD = re.compile(r"{%-?\s*load\s+(.+?)\s*-?%}", re.S)
NAMED = re.compile(r"""{%-?\s*(include|extends|import|from)\s+(["'])(.+?)\2""", re.S)


def may_use(user: Owner, used: Owner, floor: dict[str, int]) -> bool:
    """An app uses its own and lower apps' templates and tags; a room its own, its app's
    outside the rooms, and those of the rooms below it; outside the rooms, no room's."""
    if user.app != used.app:
        return floor[used.app] < floor[user.app]
    return used.room in (None, user.room) or used.room in ROOMS.get(user.room or "", ())


def upward_uses(
    text: str,
    user: Owner,
    names: dict[str, set[Owner]],
    libraries: dict[str, Owner],
    floor: dict[str, int],
) -> list[tuple[int, str]]:
    """(line, what) for each thing the template `text` of `user` may not use."""
    text = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    found = []
    for match in LOAD.finditer(text):
        words = match.group(1).split()
        for library in words[words.index("from") + 1 :] if "from" in words else words:
            owner = libraries.get(library)
            if owner is not None and not may_use(user, owner, floor):
                found.append((match.start(), f"loads {library} of {owner}"))
    for match in NAMED.finditer(text):
        name = match.group(3).split("#")[0]
        for owner in names.get(name, ()):
            if not may_use(user, owner, floor):
                found.append((match.start(), f"{match.group(1)}s {name} of {owner}"))
    return [(text.count("\n", 0, start) + 1, what) for start, what in found]


def test_templates_use_only_their_app_and_lower_ones():
    """A template may load the tag libraries, and include, extend or import the templates, of
    its own app and of the apps below it in pyproject's layers, never of an app above it or
    of another app on the same floor; in tournaments a room's template may use its own room's,
    the app's outside the rooms, and (the console) those of the rooms below it, as the imports
    may. The project's `templates/` folder (base templates, components) is core's, the lowest
    floor: its templates use no app's. An upper app that adds to a lower app's page fills one
    of the page's slots (core.hooks, `{% slot %}`)."""
    floor, files, libraries = floors(), template_files(), tag_libraries()
    names: dict[str, set[Owner]] = {}
    for name, owner in files.values():
        names.setdefault(name, set()).add(owner)
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {owner} {what}"
        for path, (_, owner) in sorted(files.items())
        for line, what in upward_uses(
            path.read_text(errors="replace"), owner, names, libraries, floor
        )
    ]
    assert len(files) > 100
    assert not wrong, "\n".join(wrong)


def test_the_template_check_finds_an_upward_use():
    floor = floors()
    names = {
        "tournaments/_live.html": {Owner("tournaments")},
        "tournaments/reports/x.html": {Owner("tournaments", "reports")},
        "base.html": {Owner("core")},
        "ratings/_row.html": {Owner("ratings")},
    }
    libraries = {
        "listing": Owner("tournaments"),
        "links": Owner("core"),
        "leaderboard": Owner("ratings"),
    }
    page = (
        '{% extends "base.html" %}\n{% load links listing %}\n'
        '{# {% load listing %} #}\n{% include "tournaments/_live.html#part" with a=1 %}'
    )
    assert upward_uses(page, Owner("leagues"), names, libraries, floor) == [
        (2, "loads listing of tournaments"),
        (4, "includes tournaments/_live.html of tournaments"),
    ]
    assert upward_uses(page, Owner("judging"), names, libraries, floor) == []
    # Another app on the same floor, another room, a room from outside the rooms.
    assert upward_uses("{% load leaderboard %}", Owner("cards"), names, libraries, floor)
    assert upward_uses("{% load leaderboard %}", Owner("ratings"), names, libraries, floor) == []
    room = '{% include "tournaments/reports/x.html" %}'
    assert upward_uses(room, Owner("tournaments", "public"), names, libraries, floor)
    assert upward_uses(room, Owner("tournaments"), names, libraries, floor)
    assert not upward_uses(room, Owner("tournaments", "console"), names, libraries, floor)
    # Jinja2's import.
    assert upward_uses(
        '{% from "ratings/_row.html" import row %}', Owner("leagues"), names, libraries, floor
    ) == [(1, "froms ratings/_row.html of ratings")]

"""The README's layout of the code names every app and room, and only folders that exist.

An entry of the map is a line of a ```text block under "The layout of the code": a folder's
name and a slash at the start of the line, indented two spaces per level below its app
(`  console/` is tournaments/console, `    views/` tournaments/console/views); a line indented
otherwise continues the entry above it. A room is a folder of an app's own holding Python,
except the folders Django or the assets name (migrations, templates...). Pure file reading: no
database, no command.
"""

import re
from pathlib import Path

from tests.readme.conftest import ROOT

HEADING = "## The layout of the code"
# Folders that are no room of their own: Django's and the assets' (named, if at all, in words).
NOT_ROOMS = {
    "migrations",
    "management",
    "templatetags",
    "formats",  # Django's FORMAT_MODULE_PATH layout: formats/<language>/formats.py
    "static",
    "templates",
    "jinja2",
    "__pycache__",
}
# Top-level folders without Python that the map names all the same.
SHARED = ("templates", "docs")
NOT_OURS = {"node_modules", "staticfiles", "media"}
FENCE = re.compile(r"^```text\n(.*?)^```", re.MULTILINE | re.DOTALL)
ENTRY = re.compile(r"^(?P<indent> *)(?P<name>[A-Za-z0-9_.-]+)/(?: |$)")


def map_entries(readme: str) -> list[str]:
    """The folders the map names, as paths from the checkout's root ("tournaments/console")."""
    start = readme.index(HEADING)
    end = readme.find("\n## ", start + len(HEADING))
    section = readme[start : end if end != -1 else len(readme)]
    entries: list[str] = []
    for block in FENCE.findall(section):
        stack: list[str] = []
        for line in block.splitlines():
            found = ENTRY.match(line)
            indent = len(found.group("indent")) if found else -1
            if not found or indent % 2 or indent // 2 > len(stack):
                continue  # prose, or the continuation of the entry above
            del stack[indent // 2 :]
            stack.append(found.group("name"))
            entries.append("/".join(stack))
    return entries


def folders(root: Path) -> set[str]:
    """What the map must name: every top-level package (a folder with Python in it, and the
    shared `templates/` and `docs/`) and every room of an app (a package with __init__.py)."""
    found = {name for name in SHARED if (root / name).is_dir()}
    for top in sorted(root.iterdir()):
        if not top.is_dir() or top.name.startswith(".") or top.name in NOT_OURS:
            continue
        if not any(top.glob("*.py")):
            continue
        found.add(top.name)
        if not (top / "__init__.py").exists() or top.name == "tests":
            continue  # bench/ holds commands, tests/ mirrors the apps: no rooms of their own
        for room in sorted(top.rglob("*")):
            parts = room.relative_to(top).parts
            if room.is_dir() and not NOT_ROOMS & set(parts) and any(room.glob("*.py")):
                found.add(room.relative_to(root).as_posix())
    return found


def problems(root: Path, readme: str) -> tuple[list[str], list[str]]:
    """(folders the map misses, entries naming no folder)."""
    named = map_entries(readme)
    missing = sorted(folders(root) - set(named))
    unknown = [entry for entry in named if not (root / entry).is_dir()]
    return missing, unknown


def test_the_map_names_every_app_and_room_and_nothing_else():
    missing, unknown = problems(ROOT, (ROOT / "README.md").read_text())
    assert not missing, f"the README's layout of the code misses {missing}"
    assert not unknown, f"the README's layout of the code names no such folder: {unknown}"


def test_each_folder_is_named_once():
    named = map_entries((ROOT / "README.md").read_text())
    assert len(named) == len(set(named)), sorted(n for n in named if named.count(n) > 1)


SYNTHETIC = """# A site

## The layout of the code

```text
a > b
```

Words, and `shop/` in prose.

```text
shop/          the shop, with a long
               line that goes on (views/ here is not an entry)
  domain/        pure rules
  web/           pages
    parts/         one module per part
other/         another app
docs/          the docs
```

## Next

```text
gone/          under another heading: not the map
```
"""


def test_the_parser_reads_levels_and_skips_continuations():
    assert map_entries(SYNTHETIC) == [
        "shop",
        "shop/domain",
        "shop/web",
        "shop/web/parts",
        "other",
        "docs",
    ]


def test_the_check_finds_a_missing_room_and_a_named_folder_that_is_gone(tmp_path):
    for package in ("shop", "shop/domain", "shop/web", "shop/web/parts", "shop/selectors"):
        (tmp_path / package).mkdir(parents=True)
        (tmp_path / package / "__init__.py").write_text("")
    for not_a_room in ("shop/migrations", "shop/templatetags", "shop/static/shop"):
        (tmp_path / not_a_room).mkdir(parents=True)
        (tmp_path / not_a_room / "x.py").write_text("")
    (tmp_path / "docs").mkdir()
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.py").write_text("")

    missing, unknown = problems(tmp_path, SYNTHETIC)

    assert missing == ["shop/selectors"]
    assert unknown == ["other"]

"""The seven catalogues (locale/<lang>/LC_MESSAGES/): how much of each is translated, and that
no translation loses a placeholder or a tag of its English (msgfmt --check, which `make
catalogues` runs, checks the python-format placeholders of entries flagged so; this checks
every entry, and the markup too)."""

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parent.parent.parent / "locale"
LANGUAGES = ["de", "fr", "es", "it", "pt_BR", "ja", "pl"]
PLACEHOLDER = re.compile(r"%\([a-zA-Z_0-9]+\)[sdifr]|%[sdif]|\{[a-zA-Z_0-9]*\}")
TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")


def catalogues(lang: str) -> list[polib.POFile]:
    return [polib.pofile(str(p)) for p in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po"))]


def coverage(lang: str) -> tuple[int, int]:
    """(translated, total) over the language's catalogues, fuzzy entries counted untranslated."""
    done = total = 0
    for catalogue in catalogues(lang):
        for entry in catalogue:
            if entry.obsolete:
                continue
            total += 1
            done += entry.translated()
    return done, total


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_its_catalogue_with_its_plural_forms(lang):
    (django,) = [c for c in catalogues(lang) if c.fpath.endswith("/django.po")]
    assert django.metadata["Language"] == lang
    assert "nplurals=" in django.metadata["Plural-Forms"]
    assert not django.metadata_is_fuzzy  # msgfmt would drop the Plural-Forms


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_translation_loses_a_placeholder_or_a_tag(lang):
    wrong = []
    for catalogue in catalogues(lang):
        for entry in catalogue.translated_entries():
            english = {entry.msgid, entry.msgid_plural} - {""}
            wanted = [sorted(set(PLACEHOLDER.findall(e))) for e in english]
            forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
            for form in forms:
                if sorted(set(PLACEHOLDER.findall(form))) not in wanted:
                    wrong.append((entry.msgid, form, "placeholders"))
                if not entry.msgid_plural and sorted(TAG.findall(form)) != sorted(
                    TAG.findall(entry.msgid)
                ):
                    wrong.append((entry.msgid, form, "tags"))
    assert not wrong, wrong[:10]


def test_the_check_finds_a_lost_placeholder(tmp_path):
    entry = polib.POEntry(msgid="Table %(table)s", msgstr="Tisch")
    assert sorted(set(PLACEHOLDER.findall(entry.msgstr))) != sorted(
        set(PLACEHOLDER.findall(entry.msgid))
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_is_at_least_95_percent_translated(lang):
    done, total = coverage(lang)
    assert total > 2000, total  # the site's strings, not an empty catalogue
    assert done / total >= 0.95, f"{lang}: {done} of {total} translated"


@pytest.mark.slow
def test_the_catalogues_hold_every_marked_string(tmp_path):
    """`makemessages` run afresh on a copy of the tree (Makefile's `messages`) leaves each
    language at least 95 % translated: a string marked in the code but never extracted (one
    a page rarely shows: a refusal, a mail) is counted."""
    import shutil
    import subprocess
    import sys

    root = LOCALE.parent
    files = subprocess.run(
        ["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in files:
        if (root / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, tmp_path / name)
    languages = " ".join(LANGUAGES)
    subprocess.run(
        [
            "make",
            "-s",
            "-o",
            "install",
            "messages",
            f"PY={sys.executable}",
            f"MESSAGE_LANGUAGES={languages}",
        ],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env={**__import__("os").environ, "DEBUG": "1"},
    )
    for lang in LANGUAGES:
        done = total = 0
        for path in (tmp_path / "locale" / lang / "LC_MESSAGES").glob("*.po"):
            for entry in polib.pofile(str(path)):
                if not entry.obsolete:
                    total += 1
                    done += entry.translated()
        assert total >= coverage(lang)[1] and done / total >= 0.95, (lang, done, total)


GETTEXT_CALLS = {
    "_",
    "N_",
    "gettext",
    "gettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "npgettext",
    "npgettext_lazy",
}
ESCAPE = re.compile(r"(?<!\\)\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{|x[0-9a-fA-F]{2})")


def escaped_msgids(source: str) -> list[str]:
    """The marked strings written with a \\u-style escape: xgettext copies the escape as text,
    so the catalogue's msgid never equals the string Python looks up (it stays English)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in GETTEXT_CALLS:
            continue
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                written = ast.get_source_segment(source, arg) or ""
                if ESCAPE.search(written):
                    found.append(written)
    return found


def test_the_check_finds_an_escape_in_a_marked_string():
    assert escaped_msgids('x = _("a\\u2013b")\ny = _("NUL (\\\\u0000)")\n') == ['"a\\u2013b"']


def test_no_marked_string_is_written_with_an_escape():
    root = LOCALE.parent
    skip = {".venv", "node_modules", "tests", "bench", "staticfiles"}
    wrong = {}
    for path in root.rglob("*.py"):
        if skip & set(path.relative_to(root).parts):
            continue
        found = escaped_msgids(path.read_text(encoding="utf-8"))
        if found:
            wrong[str(path.relative_to(root))] = found
    assert wrong == {}, "write the character itself, not its escape"

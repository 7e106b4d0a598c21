"""A pseudo-locale that wraps every translated string in markers, and a check that a page's
visible text holds nothing outside them but what people typed (issue 45).

`build(folder)` writes `folder/<PSEUDO>/LC_MESSAGES/django.mo` (and `djangojs.mo`): every
message of Guildhall's catalogues (`locale/de/`, which `make messages` fills with every marked
string), of Django's and of the installed apps' own catalogues (their `de` files, which name
every msgid they have), each translated as `⟦msgid⟧`. A page rendered in that language shows
every translated string between ⟦ and ⟧; a string that escaped translation — never marked,
or marked but not extracted into the catalogues — shows bare.

`untranslated(html, data)` is the visible text of a page (text nodes outside `<script>`,
`<style>` and `<template>`; the `title`, `aria-label`, `placeholder` and `alt` attributes; a
button's `value`) with the marked parts and the `data` strings (what was typed: player,
deck, store names, read from the database) taken out: what is left with a letter in it.
"""

import functools
import glob
import hashlib
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import polib

PSEUDO = "xx"
OPEN, CLOSE = "⟦", "⟧"

# Words shown untranslated on purpose: the product's name; the language switch's names of
# the languages (each in itself) are skipped by their own `lang` attribute.
ALLOWED = frozenset({"Guildhall", "Pseudo"})
# Text known to escape, each with what it lacks (tests/test_permission_matrix.py reads every
# page every role reaches and fails on any other): to be emptied, not added to.
KNOWN: dict[str, str] = {}

# Pieces of text joined for the check: a translated sentence may hold a link or a <strong>,
# so its markers open in one text node and close in another.
SEP = "\x1f"

_LETTER = re.compile(r"[^\W\d_]")
_MARKED = re.compile(re.escape(OPEN) + r"[^" + OPEN + CLOSE + r"]*" + re.escape(CLOSE))
_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
_HIDDEN = {"script", "style", "template"}
# Literal text a person types or reads as code (a CSV header, an address), never translated.
_LITERAL = {"code", "kbd", "samp", "textarea"}  # a textarea holds what is typed
_VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip


def _sources() -> list[str]:
    import django

    root = Path(__file__).resolve().parent.parent
    found = sorted(glob.glob(str(root / "locale" / "de" / "LC_MESSAGES" / "*.po")))
    site = Path(django.__file__).resolve().parent.parent
    pattern = site / "**" / "locale" / "de" / "LC_MESSAGES" / "*.po"
    found += sorted(glob.glob(str(pattern), recursive=True))
    return found


def _wrap(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}" if text else text


def build(folder: Path) -> Path:
    """The pseudo-locale's catalogues under `folder` (a LOCALE_PATHS entry); `folder`."""
    for domain in ("django", "djangojs"):
        catalogue = polib.POFile()
        catalogue.metadata = {
            "Content-Type": "text/plain; charset=UTF-8",
            "Plural-Forms": "nplurals=2; plural=(n != 1);",
        }
        seen = set()
        for path in _sources():
            if not path.endswith(f"/{domain}.po"):
                continue
            for entry in polib.pofile(path):
                key = (entry.msgctxt, entry.msgid, entry.msgid_plural)
                if key in seen or not entry.msgid or entry.obsolete:
                    continue
                seen.add(key)
                wrapped = polib.POEntry(msgid=entry.msgid, msgctxt=entry.msgctxt)
                if entry.msgid_plural:
                    wrapped.msgid_plural = entry.msgid_plural
                    wrapped.msgstr_plural = {0: _wrap(entry.msgid), 1: _wrap(entry.msgid_plural)}
                else:
                    wrapped.msgstr = _wrap(entry.msgid)
                catalogue.append(wrapped)
        target = folder / PSEUDO / "LC_MESSAGES"
        target.mkdir(parents=True, exist_ok=True)
        catalogue.save_as_mofile(str(target / f"{domain}.mo"))
    return folder


@functools.cache
def built(cache_root: str) -> Path:
    """The pseudo-locale built once per process and per content of its sources."""
    digest = hashlib.blake2b(digest_size=8)
    for path in _sources():
        digest.update(path.encode())
        digest.update(str(os.path.getmtime(path)).encode())
    return build(Path(cache_root) / f"pseudo-{digest.hexdigest()}")


def use(settings, tmp_path_factory) -> str:
    """For one test (pytest-django's `settings`): the pseudo-locale among the languages, its
    catalogue first; gives its code."""
    folder = built(str(tmp_path_factory.getbasetemp()))
    settings.LOCALE_PATHS = [folder, *settings.LOCALE_PATHS]
    settings.LANGUAGES = [*settings.LANGUAGES, (PSEUDO, "Pseudo")]
    return PSEUDO


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.found: list[str] = []  # text nodes and attributes, in order
        self.texts: list[str] = []  # the text nodes alone
        self.attributes: list[str] = []
        self.page_lang = ""
        self.option_value: str | None = None

    def _skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "html":
            self.page_lang = values.get("lang") or ""
        lang = values.get("lang")
        skipped = (
            self._skipped()
            or tag in _HIDDEN
            or tag in _LITERAL
            or values.get("translate") == "no"  # HTML's own mark of what is not translated
            or (lang is not None and lang != self.page_lang and tag != "html")
            or "hidden" in values
        )
        # A select's option that shows its own value (a time zone's IANA name) is data.
        self.option_value = values.get("value") if tag == "option" else None
        if not skipped:
            for name in _ATTRIBUTES:
                if values.get(name):
                    self.found.append(values[name])
                    self.attributes.append(values[name])
            pressed = tag == "input" and values.get("type") in ("submit", "button")
            if pressed and values.get("value"):
                self.found.append(values["value"])
                self.attributes.append(values["value"])
        if tag not in _VOID:
            self.stack.append((tag, skipped))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data):
        if self._skipped() or not data.strip():
            return
        if self.option_value is not None and data.strip() in (
            self.option_value,
            self.option_value.replace("_", " "),
        ):
            return
        self.found.append(data)
        self.texts.append(data)


def visible_text(html: str) -> list[str]:
    """The visible pieces of text of `html` (see the module's text)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.found


def _unmarked(text: str) -> str:
    previous = None
    while previous != text:  # a translated string inside another's placeholder
        previous, text = text, _MARKED.sub(" ", text)
    return text


def _is_word(word: str) -> bool:
    """A word a person reads as language: a letter in it, and not an acronym or a code with
    no small letter (OMW%, UTC, CSV, GPE-LEC) or with a digit (#1f5f7a, K40), which stays as
    it is in every language; nor a language's own name (the choices of a language)."""
    return (
        bool(_LETTER.search(word))
        and word.strip("()[],.;:") not in ALLOWED
        and word != word.upper()
        and not any(ch.isdigit() for ch in word)
        and word.strip("()[],.;:") not in _language_names()
    )


@functools.cache
def _language_names() -> frozenset[str]:
    from django.conf import settings

    return frozenset(w.strip("()") for _code, name in settings.LANGUAGES for w in name.split())


def untranslated(html: str, data: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The pieces of `html`'s visible text that escaped translation (see the module's text)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    # Text nodes joined, so that a sentence marked around a link is one marked span.
    pieces = _unmarked(SEP.join(parser.texts)).split(SEP)
    pieces += [_unmarked(value) for value in parser.attributes]
    longest = None
    left = []
    for text in pieces:
        if not any(_is_word(w) for w in text.split()):
            continue
        if text.strip() in data:
            continue
        if longest is None:
            longest = sorted((d for d in data if d and _LETTER.search(d)), key=len, reverse=True)
        for value in longest:
            if value in text:  # as whole words only: "or" is data, "org" is not it
                text = re.sub(r"(?<!\w)" + re.escape(value) + r"(?!\w)", " ", text)
        if any(_is_word(w) for w in re.split(r"\s+", text)):
            left.append(" ".join(text.split())[:120])
    return left


def database_text() -> frozenset[str]:
    """Every text value stored in the test database's own tables: what people typed."""
    from django.apps import apps
    from django.db import models

    values: set[str] = set()
    for model in apps.get_models():
        if model._meta.app_label in {"contenttypes", "sessions", "admin"}:
            continue
        fields = [
            f.attname
            for f in model._meta.concrete_fields
            if isinstance(f, (models.CharField, models.TextField)) and not f.choices
        ]
        if not fields:
            continue
        for row in model._default_manager.values_list(*fields):
            for value in row:
                if value:
                    values.add(str(value))
                    values.update(line.strip() for line in str(value).splitlines() if line.strip())
    return frozenset(values)

"""Reading the README and docs/*.md as a person reads them: their shell blocks, their links,
their headings' anchors. Plain text in, plain values out; the tests beside this module act."""

import re
import shlex
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from tests.readme.conftest import ROOT


def documents() -> list[Path]:
    """The README and every page of docs/, the texts that tell a person what to run."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def document_text() -> str:
    return "\n".join(path.read_text() for path in documents())


FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
# Blocks a person is told to run. Anything else (```text, ```csv, a bare ```) is shown, not run.
RUNNABLE = {"sh", "bash", "shell"}


@dataclass(frozen=True)
class Command:
    """One command of a runnable block: where it is, its words, and the whole block."""

    where: str
    words: tuple[str, ...]
    block: str

    def __str__(self) -> str:
        return f"{self.where}: {' '.join(self.words)}"


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(info string, body) of every fenced block."""
    return [(info.strip(), body) for info, body in FENCE.findall(text)]


def logical_lines(body: str) -> list[str]:
    """The block's lines with backslash continuations joined and comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", body)
    lines = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            lines.append(shlex.join(words))
    return lines


def commands_in(path: Path) -> list[Command]:
    """Every command of every runnable block in `path`; a pipeline gives one per stage."""
    found = []
    name = path.relative_to(ROOT).as_posix()
    for info, body in fenced_blocks(path.read_text()):
        if info not in RUNNABLE:
            continue
        for line in logical_lines(body):
            stage: list[str] = []
            for word in [*shlex.split(line), "|"]:
                if word == "|":
                    if stage:
                        found.append(Command(name, tuple(stage), body))
                    stage = []
                else:
                    stage.append(word)
    return found


def without_code(text: str) -> str:
    """The text without fenced blocks and inline code, where brackets are not links."""
    text = FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def relative_links(path: Path) -> list[str]:
    """Every link target in `path` that is not on another site."""
    targets = LINK.findall(without_code(path.read_text()))
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.IGNORECASE)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(
        c for c in text if c in " -_" or unicodedata.category(c)[0] in {"L", "N"}
    )  # fmt: skip
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of `path`'s headings (a repeated heading gets -1, -2... as on GitHub)."""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCE.sub("", path.read_text()).splitlines():
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        base = slug(heading.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def makefile_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([A-Za-z][\w-]*)\s*:(?!=)", text, re.MULTILINE))

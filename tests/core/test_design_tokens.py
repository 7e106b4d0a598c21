"""No one-off styles (issue 33): every colour of the site's stylesheets is a design token.

A colour written straight into a rule stays the same in the dark scheme and on the projector
(the offline banner's cream under light text was unreadable in the dark, a pod's winner white
on light green), so a colour literal may appear only where a token is declared (`--name:
value`), and a `var()` may not carry a fallback colour, which would hide a token that does not
exist. Every token a stylesheet uses is declared in guildhall.css. Templates carry no
`style="..."` (the Content-Security-Policy would drop it anyway); the mails' HTML is the one
exception, as mail programs keep no stylesheet (notifications/look.py writes the tokens in).
"""

import re
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
TOKENS = ROOT / "core/static/guildhall/guildhall.css"
STYLESHEETS = [
    TOKENS,
    ROOT / "core/static/guildhall/admin-theme.css",
    ROOT / "leagues/static/guildhall/admin.css",
    ROOT / "tournaments/static/tournaments/paper.css",
]
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(")
MAIL_TEMPLATES = "notifications/templates/notifications/email/"
# Folders of other people's files, and pages saved by tests (golden files, screenshots).
NOT_OURS = {"node_modules", "staticfiles", "tests"}


def declarations(path: Path) -> list[tuple[str, str]]:
    css = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    return re.findall(r"([\w-]+)\s*:\s*([^;{}]+)", css)


@pytest.mark.parametrize("path", STYLESHEETS, ids=lambda p: p.name)
def test_colours_are_written_only_where_a_token_is_declared(path):
    literal = [f"{p}: {v.strip()}" for p, v in declarations(path) if not p.startswith("--")]
    literal = [d for d in literal if COLOUR.search(d)]
    assert literal == []
    fallbacks = re.findall(r"var\(--[\w-]+\s*,[^)]*\)", path.read_text())
    assert fallbacks == []


def test_every_token_a_stylesheet_uses_is_declared():
    declared = {p for p, _ in declarations(TOKENS) if p.startswith("--")}
    # The admin's own variables (admin/css/base.css), which admin-theme.css sets.
    admin = {p for p, _ in declarations(STYLESHEETS[1]) if p.startswith("--")}
    for path in STYLESHEETS:
        used = set(re.findall(r"var\((--[\w-]+)", path.read_text()))
        assert used - declared - admin == set(), path.name


def test_no_template_carries_a_style_attribute():
    found = []
    for top in ROOT.iterdir():
        if not top.is_dir() or top.name.startswith(".") or top.name in NOT_OURS:
            continue
        for path in top.rglob("*"):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in (".html", ".jinja") or relative.startswith(MAIL_TEMPLATES):
                continue
            if re.search(r"\sstyle=", path.read_text(errors="replace")):
                found.append(relative)
    assert len(found) == 0, found

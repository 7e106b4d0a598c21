"""No one-off styles (issue 33): every colour of the site's stylesheets is a design token.

A colour written straight into a rule stays the same in the dark scheme and on the projector
(the offline banner's cream under light text was unreadable in the dark, a pod's winner white
on light green), so a colour literal (hex, rgb()/hsl(), or a named colour such as `white`) may
appear only where a token is declared (`--name: value`), and a `var()` may not carry a
fallback colour, which would hide a token that does not exist. Every stylesheet of the
project's (each `static/**/*.css` outside other people's folders) is checked, and every token
it uses is declared in tokens.css. The admin's stylesheet (admin-theme.css) writes no colour
at all: it sets Django's admin variables to the site's tokens. Templates carry no
`style="..."` and no `<style>` block (the Content-Security-Policy would drop both); the mails'
HTML is the one exception, as mail programs keep no stylesheet (notifications/look.py writes
the tokens in).
"""

import re
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
TOKENS = ROOT / "core/static/guildhall/tokens.css"
ADMIN_THEME = ROOT / "core/static/guildhall/admin-theme.css"
# Folders of other people's files (npm's, vendored copies, collectstatic's output, the
# virtualenv) and pages saved by tests (golden files, screenshots).
NOT_OURS = {"node_modules", "vendor", "staticfiles", "tests", "site-packages"}


def ours(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return not any(part in NOT_OURS or part.startswith(".") for part in parts)


STYLESHEETS = sorted(p for p in ROOT.glob("**/static/**/*.css") if ours(p))
# The CSS named colours (CSS Color Module Level 4, section 6.1), `transparent` and
# `currentcolor` aside: they stay right in every scheme.
NAMED = re.findall(
    r"[a-z]+",
    "aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue "
    "blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue "
    "cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey "
    "darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon "
    "darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet "
    "deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen "
    "fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew "
    "hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon "
    "lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey "
    "lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey "
    "lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine "
    "mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen "
    "mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite "
    "navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen "
    "paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple "
    "rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell "
    "sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan "
    "teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen",
)
COLOUR = re.compile(
    r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(|(?<![\w-])(?:"
    + "|".join(NAMED)
    + r")(?![\w-])",
    re.I,
)
MAIL_TEMPLATES = "notifications/templates/notifications/email/"


def declarations(path: Path) -> list[tuple[str, str]]:
    css = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    css = re.sub(r"\"[^\"]*\"|'[^']*'", '""', css)  # a string (content, a font's name) is no colour
    return re.findall(r"([\w-]+)\s*:\s*([^;{}]+)", css)


@pytest.mark.parametrize("path", STYLESHEETS, ids=lambda p: p.name)
def test_colours_are_written_only_where_a_token_is_declared(path):
    literal = [f"{p}: {v.strip()}" for p, v in declarations(path) if not p.startswith("--")]
    literal = [d for d in literal if COLOUR.search(d)]
    assert literal == []
    fallbacks = re.findall(r"var\(--[\w-]+\s*,[^)]*\)", path.read_text())
    assert fallbacks == []


def test_the_stylesheets_are_found():
    """The glob finds the site's own stylesheets and none of node_modules' or vendor's."""
    names = {p.relative_to(ROOT).as_posix() for p in STYLESHEETS}
    assert {
        "core/static/guildhall/tokens.css",
        "core/static/guildhall/guildhall.css",
        "core/static/guildhall/admin-theme.css",
        "tournaments/static/tournaments/paper.css",
    } <= names
    assert not any("node_modules" in n or "vendor" in n for n in names)


def test_a_named_colour_is_a_colour():
    assert COLOUR.search("color: White") and COLOUR.search("border: 1px solid red")
    assert not COLOUR.search("color: currentColor") and not COLOUR.search("grid-area: redo")
    assert not COLOUR.search("background: transparent") and not COLOUR.search("cursor: pointer")


def test_every_token_a_stylesheet_uses_is_declared():
    declared = {p for p, _ in declarations(TOKENS) if p.startswith("--")}
    # The admin's own variables (admin/css/base.css), which admin-theme.css sets.
    admin = {p for p, _ in declarations(ADMIN_THEME) if p.startswith("--")}
    for path in STYLESHEETS:
        used = set(re.findall(r"var\((--[\w-]+)", path.read_text()))
        assert used - declared - admin == set(), path.name


def test_the_admin_takes_every_colour_from_the_sites_tokens():
    """admin-theme.css sets each of Django's admin variables it touches to the site's tokens
    (`--primary: var(--brand)`), so the admin changes when a token does, in both schemes."""
    site = {p for p, _ in declarations(TOKENS) if p.startswith("--")}
    literal = [f"{p}: {v.strip()}" for p, v in declarations(ADMIN_THEME) if COLOUR.search(v)]
    assert literal == []
    for name, value in declarations(ADMIN_THEME):
        if name.startswith("--"):
            used = re.findall(r"var\((--[\w-]+)\)", value)
            assert used and set(used) <= site, f"{name}: {value.strip()}"


def test_no_template_carries_a_style_attribute_or_block():
    found = []
    for top in ROOT.iterdir():
        if not top.is_dir() or not ours(top):
            continue
        for path in top.rglob("*"):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in (".html", ".jinja") or relative.startswith(MAIL_TEMPLATES):
                continue
            if not ours(path):
                continue
            if re.search(r"\sstyle=|<style[\s>]", path.read_text(errors="replace"), re.I):
                found.append(relative)
    assert len(found) == 0, found

"""Accessibility checks a browser test runs inside a page (issue 33): axe-core, tap targets.

axe-core comes from the npm registry, pinned in package.json and package-lock.json and put in
core/static/vendor/ by `make assets` (a prerequisite of `make test`); the page loads it as one
of the site's own static files (the Content-Security-Policy allows no other script). The
checks return plain lists of problems, so a crawl can report every page's at once.
"""

from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

AXE = Path(settings.BASE_DIR) / "core" / "static" / "vendor" / "axe.min.js"
# What fails a page: WCAG A and AA rules at these impacts (minor and moderate are reported by
# `make assets`' axe in a browser's devtools, not here).
FAILING = ("serious", "critical")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# A finger's size (WCAG 2.5.5, Apple's and Google's guidance): every control a person taps
# alone, the links of the site's and the admin's tables (a name in the standings, a table in
# the pairings, a row of a list) among them. WCAG exempts a link inside a sentence of text,
# sized by the line it sits in; Guildhall does not (issue 43: "Final standings", "Add to
# calendar", a season's "CSV" and the console's paper-pack links were 16-19 px tall on a
# phone): on the site's pages every link is a target too (TEXT_LINKS), its box grown by
# padding that leaves the lines of its paragraph where they were (guildhall.css). The admin's
# pages (Django's own markup, admin-theme.css) are checked for CONTROLS only.
TAP = 44
# The rules whose answer depends on the layout: the crawl runs every rule at 390 px and only
# these again at 1366 px (the page's markup is the same at both widths), which halves axe's
# share of the crawl's time.
LAYOUT_RULES = ["color-contrast", "target-size", "scrollable-region-focusable"]
# The console's report of a style attribute the Content-Security-Policy blocked.
AXE_STYLE = "Applying inline style violates the following Content Security Policy"
# Resolves once every CSS transition running in the page has ended (at once when none runs).
SETTLED = """() => Promise.all(document.getAnimations()
    .filter((a) => a instanceof CSSTransition)
    .map((a) => a.finished.catch(() => null)))"""
CONTROLS = (
    "button, .button, summary, select, nav a, table a, .league-list a, .store-head a, "
    "input:not([type=hidden]):not([type=checkbox]):not([type=radio])"
)
TEXT_LINKS = "a[href]"


def axe_missing() -> str | None:
    if AXE.exists():
        return None
    return f"{AXE} is missing: run `make assets` (npm ci; `make test` does it first)"


def axe_violations(page, *, rules: list[str] | None = None) -> list[str]:
    """axe-core's serious and critical violations in the page as it is now, one line each
    (rule, impact, how many elements, the first element's selector). A colour still easing (a
    link the pointer left, a scheme just switched: the admin's links take 0.15 s) is measured
    where it ends, not halfway."""
    page.evaluate(SETTLED)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(url="/static/vendor/axe.min.js")
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    else:
        options["runOnly"] = {"type": "tag", "values": TAGS}
    found = page.evaluate(
        """async (options) => {
          const result = await axe.run(document, options);
          return result.violations.map((v) => [v.id, v.impact, v.nodes.length,
            v.nodes[0] ? v.nodes[0].target.join(" ") : "", v.help]);
        }""",
        options,
    )
    return [
        f"{rule} ({impact}, {count}x, first: {target}): {text}"
        for rule, impact, count, target, text in found
        if impact in FAILING
    ]


@contextmanager
def checker_reports_dropped(visit):
    """axe sets a style attribute on elements while it measures some backgrounds, which the
    Content-Security-Policy blocks and the console reports: those reports, made by the checker
    and not the page, are taken out of the Visit's errors while the block runs."""
    before = len(visit.errors)
    try:
        yield
    finally:
        visit.errors[before:] = [e for e in visit.errors[before:] if not e.startswith(AXE_STYLE)]


def unreadable_in(visit, scheme: str) -> list[str]:
    """axe's colour-contrast violations of a Visit's page as it is now, in `scheme` ("dark" or
    "light"; the page is left in it)."""
    with checker_reports_dropped(visit):
        visit.page.emulate_media(color_scheme=scheme)
        found = axe_violations(visit.page, rules=["color-contrast"])
    return [f"{scheme}: {v}" for v in found]


def unreadable_in_either_scheme(visit) -> list[str]:
    """Colour-contrast violations in the dark scheme and then the light one (where the page is
    left): for states the crawl does not reach, such as the offline banner or a pod's winner
    seat."""
    return unreadable_in(visit, "dark") + unreadable_in(visit, "light")


def small_targets(page, *, text_links: bool = True) -> list[str]:
    """Controls smaller than 44x44 px that a person taps (visible ones only); `text_links`:
    every link too, those in running text among them (False: the admin's pages)."""
    selector = f"{CONTROLS}, {TEXT_LINKS}" if text_links else CONTROLS
    return page.evaluate(
        """([selector, tap]) => [...document.querySelectorAll(selector)]
          .filter((el) => !el.closest(".sortoptions"))  // the admin's: see admin-theme.css
          .filter((el) => {
            const box = el.getBoundingClientRect();
            if (!box.width || !box.height) return false;  // hidden
            // inside a closed <details> (the admin's Menu): laid out, but not shown
            if (!el.checkVisibility()) return false;
            const style = getComputedStyle(el);
            if (style.visibility === "hidden") return false;
            return box.height < tap - 0.5 || box.width < tap - 0.5;
          })
          .slice(0, 5)
          .map((el) => {
            const box = el.getBoundingClientRect();
            const text = (el.textContent || el.value || el.name || "").trim().slice(0, 30);
            return `${el.tagName.toLowerCase()} "${text}" ${Math.round(box.width)}x`
              + `${Math.round(box.height)}`;
          })""",
        [selector, TAP],
    )

"""Paragraphs of help a page opens with, found in its HTML (docs/design.md: "Help is behind a ?").

`long_paragraphs(html)` returns the start of every `<p>` inside `<main>` whose text is longer
than `LIMIT` characters (whitespace collapsed) and that is not inside one of the exempt places:

- `details.help-toggle`: the help already behind its "?"; likewise any `<details>` drawn
  closed (a "How do I get a webhook address?" under its field), which is out of the first
  screen by construction;
- a form field's `.help` (a `.help` inside a `.field`): the one-line hint under an input;
- `.message`, `[role=alert]`, `[role=status]`: an error, a state or a warning a person needs
  to act on, which stays in view however long it is;
- `.page-subject`: text that is what the page is for rather than help about it (the players
  entered by the store, each with their seat link, on the registration desk); a template
  marks such a block with the class.

The words of a `<select>`'s options, a `<textarea>`, a script or a style are not text a
person reads as a paragraph, and are not counted.

The test of the rule (`tests/test_permission_matrix.py`) runs this on every page the matrix
fetches. The limit, 160 characters, is about four lines on a 390 px phone: a sentence or two
that says what to do stays; a paragraph that explains the page does not.
"""

from html.parser import HTMLParser

LIMIT = 160

# Elements that never have an end tag: they open nothing on the stack.
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}
EXEMPT_CLASSES = {"message", "page-subject"}
EXEMPT_ROLES = {"alert", "status"}
UNREAD = {"select", "textarea", "script", "style", "template"}


def _exempt(tag: str, attrs: dict, inside_field: bool) -> bool:
    classes = set((attrs.get("class") or "").split())
    if tag == "details" and ("help-toggle" in classes or "open" not in attrs):
        return True
    if classes & EXEMPT_CLASSES or attrs.get("role") in EXEMPT_ROLES:
        return True
    return "help" in classes and inside_field


class _Paragraphs(HTMLParser):
    def __init__(self, limit: int):
        super().__init__(convert_charrefs=True)
        self.limit = limit
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, exempt, is a .field)
        self.in_main = 0
        self.text: list[str] | None = None  # the open, counted <p>'s text
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        inside_field = any(is_field for _, _, is_field in self.stack)
        is_field = "field" in (attrs.get("class") or "").split()
        exempt = _exempt(tag, attrs, inside_field or is_field)
        if tag == "main":
            self.in_main += 1
        if tag == "p":
            self._close_paragraph()  # a <p> inside a <p> closes the first, as in a browser
            counted = self.in_main and not exempt and not any(e for _, e, _ in self.stack)
            self.text = [] if counted else None
        self.stack.append((tag, exempt, is_field))

    def handle_startendtag(self, tag, attrs):
        pass  # <br/>, <img/>: no text, nothing opened

    def handle_endtag(self, tag):
        if tag in VOID or tag not in (t for t, _, _ in self.stack):
            return
        while self.stack:
            open_tag, _, _ = self.stack.pop()
            if open_tag == "p":
                self._close_paragraph()
            if open_tag == "main":
                self.in_main -= 1
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self.text is not None and not any(t in UNREAD for t, _, _ in self.stack):
            self.text.append(data)

    def _close_paragraph(self):
        if self.text is None:
            return
        text = " ".join("".join(self.text).split())
        self.text = None
        if len(text) > self.limit:
            self.found.append(text)


def long_paragraphs(html: str, limit: int = LIMIT) -> list[str]:
    """The text of each paragraph of `<main>` longer than `limit` outside the exempt places."""
    # Only <main> is read: the header, the menus and the scripts around it are half a page.
    start, end = html.find("<main"), html.rfind("</main>")
    if start == -1 or end == -1:
        return []
    parser = _Paragraphs(limit)
    parser.feed(html[start : end + len("</main>")])
    parser.close()
    return parser.found

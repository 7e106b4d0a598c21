"""Django's makemessages, reading the Jinja2 templates too (`<app>/jinja2/**/*.jinja`).

Django's own command reads Python (xgettext) and Django templates (turned into Python by
`templatize` first); a Jinja2 template's `{% trans %}` and `{{ _("...") }}` are not Django's
syntax. Here a `.jinja` file is read by Jinja2's own extractor (`jinja2.ext.babel_extract`,
the one Babel calls) and turned into Python calls on the same line numbers, so the catalogue
names the template and its line like any other string. Everything else is Django's command:
`make messages` runs it (docs/translation.md).
"""

import io

from django.core.management.commands import makemessages
from jinja2.ext import babel_extract

# The functions a template may call (jinja2.ext.GETTEXT_FUNCTIONS) and what each becomes.
CALLS = {"_": "gettext", "gettext": "gettext", "ngettext": "ngettext", "pgettext": "pgettext"}
# As core/jinja.py's environment reads its templates.
OPTIONS = {"trim_blocks": "true", "lstrip_blocks": "true", "newstyle_gettext": "true"}


def jinja_as_python(source: str) -> str:
    """The translatable strings of a Jinja2 template as Python calls, line for line."""
    lines: dict[int, list[str]] = {}
    found = babel_extract(io.BytesIO(source.encode("utf-8")), list(CALLS), ["Translators"], OPTIONS)
    for lineno, function, messages, comments in found:
        if isinstance(messages, str):
            messages = (messages,)
        strings = [m for m in messages if isinstance(m, str)]
        name = CALLS.get(function, "gettext")
        if name == "ngettext":
            call = f"ngettext({strings[0]!r}, {strings[1]!r}, 1)"
        elif name == "pgettext":
            call = f"pgettext({strings[0]!r}, {strings[1]!r})"
        else:
            call = f"gettext({strings[0]!r})"
        row = lines.setdefault(lineno, [])
        row.extend(f"# {comment}" for comment in comments)
        row.append(call)
    total = source.count("\n") + 1
    out = []
    for number in range(1, total + 1):
        calls = lines.get(number, [])
        comments = [c for c in calls if c.startswith("#")]
        code = [c for c in calls if not c.startswith("#")]
        # A translator's comment must be on the line above its call: it takes the line before
        # (templates rarely put a string on the line after another).
        if comments and out:
            out[-1] = " ".join(comments)
        out.append("; ".join(code))
    return "\n".join(out) + "\n"


class JinjaBuildFile(makemessages.BuildFile):
    @property
    def is_jinja(self) -> bool:
        return self.translatable.file.endswith(".jinja")

    def preprocess(self):
        if not (self.is_templatized and self.is_jinja):
            return super().preprocess()
        with open(self.path, encoding="utf-8") as file:
            content = jinja_as_python(file.read())
        with open(self.work_path, "w", encoding="utf-8") as file:
            file.write(content)


class Command(makemessages.Command):
    build_file_class = JinjaBuildFile
    # `N_("...")` marks a string for the catalogue without translating it where it is written
    # (gettext's "noop" convention): `tournaments/domain/`, which runs in the browser and
    # imports no Django, raises its messages in English with `N_`, and the formats translate
    # them where they are shown (docs/translation.md); `Nn_` marks a plural pair, `Np_` a
    # sentence under a context (msgctxt).
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=N_",
        "--keyword=Nn_:1,2",
        "--keyword=Np_:1c,2",
    ]

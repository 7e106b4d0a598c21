"""The pure domain's sentences as the phone's own pairing writes them (issue 45).

The offline round pairs under Pyodide with `tournaments/domain` alone, which marks its
sentences with `N_`, `Nn_` and `Np_` and hands them out before translation: a refusal's
`template` and `params`, a warning's `Note.data()`. The page translates them with the
scripts' catalogue, which carries these msgids' translations from the Python catalogue
(`core.hooks.script_words`, registered in `TournamentsConfig.ready`). The msgids are read from
the domain's own source, as makemessages reads it, so that a new sentence there is carried
without a list to keep.
"""

import ast
from functools import cache
from pathlib import Path

DOMAIN = Path(__file__).resolve().parent / "domain"

# What joins the items of a list inside a sentence (a warning's rematches), in the reader's
# language: tournaments.errors.note_text's msgid.
LIST_SEPARATOR = "between the items of a list\x04; "


@cache
def domain_words() -> frozenset:
    """Every msgid the domain marks: a msgid, 'context\\x04msgid' (`Np_`), or a (msgid,
    plural) pair (`Nn_`)."""
    words: set = {LIST_SEPARATOR}
    for path in sorted(DOMAIN.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            texts = [
                arg.value
                for arg in node.args
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            ]
            if len(texts) != len(node.args):
                continue
            if node.func.id == "N_" and len(texts) == 1:
                words.add(texts[0])
            elif node.func.id == "Nn_" and len(texts) == 2:
                words.add((texts[0], texts[1]))
            elif node.func.id == "Np_" and len(texts) == 2:
                words.add(f"{texts[0]}\x04{texts[1]}")
    return frozenset(words)

"""Ordinal numbers in the active language: "1st", "2nd", "11th" (as django.contrib.humanize
writes them, one template per ending, so each language writes its own: "1.", "1er", "1位")."""

from core.translate import pgettext


def ordinal(n: int) -> str:
    """`n` as an ordinal, in the language active now."""
    if 10 <= n % 100 <= 20:
        template = pgettext("ordinal 11, 12, 13", "%(n)sth")
    elif n % 10 == 1:
        template = pgettext("ordinal 1", "%(n)sst")
    elif n % 10 == 2:
        template = pgettext("ordinal 2", "%(n)snd")
    elif n % 10 == 3:
        template = pgettext("ordinal 3", "%(n)srd")
    else:
        template = pgettext("ordinal 0, 4 to 9", "%(n)sth")
    return template % {"n": n}

"""The IPG's terms as judges and players read them, in their language.

`judging.domain.ipg` is pure (no Django) and keeps the IPG's infractions and penalties in
English, the words its logic and its History summaries use. These are the same names marked
for translation, lazily (the model's choices are read at import): each language's catalogue
gives Wizards of the Coast's own translated term where one exists (docs/glossary/). A test
holds them equal to the domain's, word for word, in English.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .domain import ipg

# A penalty of the Magic Infraction Procedure Guide (IPG): Wizards of the Coast's own term for
# it in each language.
PENALTIES = {
    # Translators: a penalty's name in the IPG (Magic Infraction Procedure Guide).
    ipg.NONE: pgettext_lazy("IPG penalty", "No penalty"),
    # Translators: a penalty's name in the IPG (Magic Infraction Procedure Guide).
    ipg.WARNING: pgettext_lazy("IPG penalty", "Warning"),
    # Translators: a penalty's name in the IPG (Magic Infraction Procedure Guide).
    ipg.GAME_LOSS: pgettext_lazy("IPG penalty", "Game Loss"),
    # Translators: a penalty's name in the IPG (Magic Infraction Procedure Guide).
    ipg.MATCH_LOSS: pgettext_lazy("IPG penalty", "Match Loss"),
    # Translators: a penalty's name in the IPG (Magic Infraction Procedure Guide).
    ipg.DQ: pgettext_lazy("IPG penalty", "Disqualification"),
}

# An infraction's name in the Magic Infraction Procedure Guide (IPG), "category — infraction":
# Wizards of the Coast's own terms in each language. The "Regular" ones are the kinds of
# problem of the "Judging at Regular REL" document.
INFRACTIONS = {
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "GPE-MT": pgettext_lazy("IPG infraction", "Game Play Error — Missed Trigger"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "GPE-LEC": pgettext_lazy("IPG infraction", "Game Play Error — Looking at Extra Cards"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "GPE-HCE": pgettext_lazy("IPG infraction", "Game Play Error — Hidden Card Error"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "GPE-MPE": pgettext_lazy("IPG infraction", "Game Play Error — Mulligan Procedure Error"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "GPE-GRV": pgettext_lazy("IPG infraction", "Game Play Error — Game Rule Violation"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "GPE-FTMGS": pgettext_lazy(
        "IPG infraction", "Game Play Error — Failure to Maintain Game State"
    ),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-T": pgettext_lazy("IPG infraction", "Tournament Error — Tardiness"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-OA": pgettext_lazy("IPG infraction", "Tournament Error — Outside Assistance"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-SP": pgettext_lazy("IPG infraction", "Tournament Error — Slow Play"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-DLP": pgettext_lazy("IPG infraction", "Tournament Error — Decklist Problem"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-DP": pgettext_lazy("IPG infraction", "Tournament Error — Deck Problem"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-LPV": pgettext_lazy("IPG infraction", "Tournament Error — Limited Procedure Violation"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-CPV": pgettext_lazy("IPG infraction", "Tournament Error — Communication Policy Violation"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-MC": pgettext_lazy("IPG infraction", "Tournament Error — Marked Cards"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "TE-IS": pgettext_lazy("IPG infraction", "Tournament Error — Insufficient Shuffling"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "USC-MINOR": pgettext_lazy("IPG infraction", "Unsporting Conduct — Minor"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "USC-MAJOR": pgettext_lazy("IPG infraction", "Unsporting Conduct — Major"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "USC-IDW": pgettext_lazy(
        "IPG infraction", "Unsporting Conduct — Improperly Determining a Winner"
    ),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "USC-BW": pgettext_lazy("IPG infraction", "Unsporting Conduct — Bribery and Wagering"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "USC-AB": pgettext_lazy("IPG infraction", "Unsporting Conduct — Aggressive Behavior"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "USC-TTM": pgettext_lazy("IPG infraction", "Unsporting Conduct — Theft of Tournament Material"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "USC-S": pgettext_lazy("IPG infraction", "Unsporting Conduct — Stalling"),
    # Translators: an infraction's name in the IPG (Magic Infraction Procedure Guide).
    "USC-C": pgettext_lazy("IPG infraction", "Unsporting Conduct — Cheating"),
    # Translators: a kind of problem of Wizards' "Judging at Regular REL" document.
    "R-GE": pgettext_lazy(
        "IPG infraction",
        "Regular — Game error (a rule broken, extra cards seen or drawn, a trigger missed)",
    ),
    # Translators: a kind of problem of Wizards' "Judging at Regular REL" document.
    "R-DP": pgettext_lazy("IPG infraction", "Regular — Deck or decklist problem"),
    # Translators: a kind of problem of Wizards' "Judging at Regular REL" document.
    "R-SP": pgettext_lazy("IPG infraction", "Regular — Slow play or tardiness"),
    # Translators: a kind of problem of Wizards' "Judging at Regular REL" document.
    "R-OA": pgettext_lazy("IPG infraction", "Regular — Outside assistance or communication"),
    # Translators: a kind of problem of Wizards' "Judging at Regular REL" document.
    "R-USC": pgettext_lazy("IPG infraction", "Regular — Unsporting conduct"),
    # Translators: a kind of problem of Wizards' "Judging at Regular REL" document.
    "R-SERIOUS": pgettext_lazy(
        "IPG infraction", "Regular — Serious problem (cheating, aggression, theft, bribery)"
    ),
}

# Translators: the edition of the Magic Infraction Procedure Guide the penalties follow, as
# cited on the judges' penalty page.
IPG_VERSION = _(
    "Magic Infraction Procedure Guide, effective April 15, 2024 (penalties of sections 2-4, "
    "as in Appendix A); upgrades as worded in the Annotated IPG (sections 2, 3, 4.1, 4.2), "
    "read 28 November 2026"
)

# How the deck-check picker chooses its tables (domain.deckcheck.MODES).
DECK_CHECK_MODES = {
    "random": _("At random"),
    "top": _("From the top of the standings"),
}

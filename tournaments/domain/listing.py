"""How an upcoming event reads in a list: its fee and its seats, in a few words.

Plain values in, a short label out (no Django): `fee_label(Decimal("10"), "USD")` is "$10",
an empty or zero fee is "Free"; `seats_label(cap=16, taken=11, waiting=0)` is "5 of 16 left".
The checks a fee and a currency must pass are here too, so the forms and the services say the
same thing.
"""

import re
from decimal import Decimal

from tournaments.domain.texts import N_, Gettext, english

# The symbol players expect in front of the amount; other currencies follow it ("12 CHF").
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "CA$", "AUD": "A$", "JPY": "¥"}
MAX_FEE = Decimal("99999.99")  # the column holds 7 digits, 2 after the point
CURRENCY = re.compile(r"[A-Z]{3}")


def fee_label(amount: Decimal | None, currency: str = "", gettext: Gettext = english) -> str:
    """ "Free", "$10", "€7.50", "12 CHF"; whole amounts without their cents ("Free" in
    `gettext`'s language)."""
    if amount is None or amount == 0:
        return gettext(N_("Free"))
    number = f"{amount:.0f}" if amount == amount.to_integral_value() else f"{amount:.2f}"
    symbol = SYMBOLS.get(currency)
    if symbol:
        return f"{symbol}{number}"
    return f"{number} {currency}".strip()


def fee_problem(
    amount: Decimal | None, currency: str, gettext: Gettext = english
) -> tuple[str, str] | None:
    """(field, why) when a fee and its currency cannot be stored; None when they can (why in
    `gettext`'s language)."""
    if amount is None:
        return None
    if not amount.is_finite():
        return "entry_fee", gettext(N_("Give the fee as an amount, e.g. 10 or 7.50."))
    if amount < 0:
        why = N_("A fee is not negative; leave it empty (or 0) for a free event.")
        return "entry_fee", gettext(why)
    if amount > MAX_FEE:
        return "entry_fee", gettext(N_("A fee is at most %(most)s.")) % {"most": MAX_FEE}
    if amount != amount.quantize(Decimal("0.01")):
        return "entry_fee", gettext(N_("A fee has at most two digits after the point, e.g. 7.50."))
    if amount and not CURRENCY.fullmatch(currency or ""):
        why = N_("Give the fee's currency as three capital letters: USD, EUR, GBP.")
        return "fee_currency", gettext(why)
    return None


def seats_label(
    *, cap: int | None, taken: int, waiting: int = 0, gettext: Gettext = english
) -> str:
    """ "5 of 16 left", "Full, 3 on the waitlist", "No limit" (no cap: every player gets in),
    in `gettext`'s language."""
    if cap is None:
        return gettext(N_("No limit"))
    left = max(0, cap - taken)
    if left:
        return gettext(N_("%(left)s of %(cap)s left")) % {"left": left, "cap": cap}
    if waiting:
        return gettext(N_("Full, %(waiting)s on the waitlist")) % {"waiting": waiting}
    return gettext(N_("Full: join the waitlist"))

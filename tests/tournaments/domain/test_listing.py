"""How an upcoming event's fee and seats read (tournaments.domain.listing)."""

from decimal import Decimal

import pytest

from tournaments.domain.listing import fee_label, fee_problem, seats_label


@pytest.mark.parametrize(
    ("amount", "currency", "label"),
    [
        (None, "", "Free"),
        (None, "USD", "Free"),
        (Decimal("0"), "USD", "Free"),
        (Decimal("0.00"), "EUR", "Free"),
        (Decimal("10"), "USD", "$10"),
        (Decimal("10.00"), "USD", "$10"),
        (Decimal("7.50"), "EUR", "€7.50"),
        (Decimal("5"), "GBP", "£5"),
        (Decimal("12"), "CHF", "12 CHF"),
    ],
)
def test_fee_label(amount, currency, label):
    assert fee_label(amount, currency) == label


@pytest.mark.parametrize(
    ("amount", "currency", "field"),
    [
        (Decimal("-1"), "USD", "entry_fee"),
        (Decimal("100000"), "USD", "entry_fee"),
        (Decimal("1.005"), "USD", "entry_fee"),
        (Decimal("NaN"), "USD", "entry_fee"),
        (Decimal("Infinity"), "USD", "entry_fee"),
        (Decimal("10"), "", "fee_currency"),
        (Decimal("10"), "usd", "fee_currency"),
        (Decimal("10"), "US", "fee_currency"),
        (Decimal("10"), "US$", "fee_currency"),
    ],
)
def test_fee_problems_name_their_field(amount, currency, field):
    problem = fee_problem(amount, currency)
    assert problem is not None and problem[0] == field and problem[1]


@pytest.mark.parametrize(
    ("amount", "currency"),
    [(None, ""), (Decimal("0"), ""), (Decimal("10"), "USD"), (Decimal("99999.99"), "EUR")],
)
def test_fees_that_are_fine(amount, currency):
    assert fee_problem(amount, currency) is None


@pytest.mark.parametrize(
    ("cap", "taken", "waiting", "label"),
    [
        (None, 40, 0, "No limit"),
        (16, 11, 0, "5 of 16 left"),
        (16, 0, 0, "16 of 16 left"),
        (16, 16, 0, "Full: join the waitlist"),
        (16, 17, 3, "Full, 3 on the waitlist"),  # a walk-in past the cap
    ],
)
def test_seats_label(cap, taken, waiting, label):
    assert seats_label(cap=cap, taken=taken, waiting=waiting) == label

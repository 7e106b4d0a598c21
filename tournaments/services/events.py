"""Creating an event: its format, points, tiebreakers, layout, top cut, start time, place and
fee, checked before a row is written; a date more than a year ahead needs a confirmation.
"""

import secrets
from datetime import time
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from audit.actors import acting_user
from leagues import services as league_services

from ..domain import byerules, records
from ..domain.listing import fee_problem
from ..domain.podcut import CUT_SEATS
from ..domain.pods import LAYOUTS
from ..domain.reports import RULES as REPORT_RULES
from ..domain.standings import PRESETS
from ..errors import TournamentError, domain_message
from ..formats import FORMATS
from ..models import Tournament

POINT_PRESETS = {
    "magic": records.MAGIC,
    "chess": records.CHESS,
    "cedh": records.CEDH_PODS,  # why 5/1/0: formats.Pods.default_points
}


def _tiebreaker_preset(name: str | None, *, play, points: str) -> list[str]:
    if name:
        if name not in PRESETS:
            raise TournamentError(
                _("Unknown tiebreakers %(name)s.") % {"name": repr(name)},
                code="tiebreakers",
                field="tiebreakers",
            )
        return list(PRESETS[name])
    # By default the tiebreakers follow the format, then the points.
    return list(PRESETS[play.tiebreaker_preset(points)])


def _bye_rule(name: str | None) -> str:
    """A `domain.byerules` rule, or "" for the default of the event's tiebreakers."""
    if not name:
        return ""
    try:
        return byerules.check(name)
    except byerules.ByeRuleError as error:
        raise TournamentError(domain_message(error), code="bye_rule", field="bye_rule") from None


EVENT_DAYS_AHEAD_UNCONFIRMED = 365
MAX_PLACE = 200


def far_date_problem(day) -> str | None:
    """Why an event's date needs a confirmation (more than a year ahead: a typo, usually)."""
    today = timezone.localdate()
    if (day - today).days <= EVENT_DAYS_AHEAD_UNCONFIRMED:
        return None
    return _(
        "%(date)s is more than a year ahead. Check the year; if the date is right, tick the "
        "box below and create the event again."
    ) % {"date": date_format(day, "GH_DATE_LONG")}


def listing_check(
    *, start_time: time | None, place: str, entry_fee: Decimal | None, fee_currency: str
) -> tuple[str, str]:
    """The place and currency as stored (trimmed, upper case); TournamentError naming the
    field otherwise."""
    if start_time is not None and not isinstance(start_time, time):
        raise TournamentError(_("Give the start time as HH:MM, e.g. 19:00."), field="start_time")
    place = (place or "").strip()
    if len(place) > MAX_PLACE:
        raise TournamentError(
            _("The place is %(length)s characters long; at most %(most)s.")
            % {"length": len(place), "most": MAX_PLACE},
            field="place",
        )
    if any(ord(c) < 32 for c in place):
        raise TournamentError(_("The place is one line of text."), field="place")
    fee_currency = (fee_currency or "").strip().upper()
    problem = fee_problem(entry_fee, fee_currency, _)
    if problem:
        raise TournamentError(problem[1], code="fee", field=problem[0])
    if entry_fee is None:
        fee_currency = ""
    return place, fee_currency


@transaction.atomic
def tournament_create(
    *,
    league,
    name: str,
    date=None,
    confirm_date: bool = False,
    format: str = Tournament.Format.ONE_V_ONE,
    points: str | None = None,
    tiebreakers: str | None = None,
    bye_rule: str = "",
    pod_layout: str = "threes",
    swiss_rounds: int | None = None,
    top_cut: int = 0,
    first_round: str = Tournament.FirstRound.RANDOM,
    round_minutes: int = 50,
    bye_pairing: str | None = None,
    cut_seats: str = "by_seed",
    self_report: str = "all",
    start_time=None,
    place: str = "",
    entry_fee=None,
    fee_currency: str = "",
    by=None,
) -> Tournament:
    """A new Swiss event in `league` (1v1 matches or pods), with a random seed and a slug from
    the store's slug and the name (league_services.slug_new: never telling of other stores).

    Points default to Magic 3/1/0 for 1v1 and cEDH 5/1/0 for pods; the tiebreakers to the
    preset of the format ("pods") or of the points; a 1v1 bye to the lowest-ranked player
    without one (the MTR) unless `bye_pairing` says otherwise, or the points are chess (moved up
    to avoid a rematch); the bye rule (`domain.byerules`) to the default of the tiebreakers
    (stored empty, read by `selectors.bye_rule`). A date more than a year ahead needs
    `confirm_date` (TournamentError code far_date otherwise). The start time, place and fee
    are checked by `listing_check`, as an edit of them is.
    """
    place, fee_currency = listing_check(
        start_time=start_time, place=place, entry_fee=entry_fee, fee_currency=fee_currency
    )
    if date is not None and not confirm_date and (far := far_date_problem(date)):
        raise TournamentError(far, code="far_date", field="date")
    if format not in Tournament.Format.values:
        raise TournamentError(_("Choose 1v1 or pods."), code="format", field="format")
    play = FORMATS[format]
    points = points or play.default_points
    if points not in POINT_PRESETS:
        raise TournamentError(
            _("Unknown points %(points)s.") % {"points": repr(points)},
            code="points",
            field="points",
        )
    if pod_layout not in LAYOUTS:
        raise TournamentError(
            _("Choose a pod layout: %(layouts)s.") % {"layouts": ", ".join(LAYOUTS)},
            code="pod_layout",
            field="pod_layout",
        )
    play.check_top_cut(top_cut)
    bye_pairing = bye_pairing or play.bye_preset(points)
    if bye_pairing not in Tournament.ByePairing.values:
        raise TournamentError(
            _("Choose who gets the bye: %(rules)s.")
            % {"rules": ", ".join(Tournament.ByePairing.values)},
            code="bye_pairing",
            field="bye_pairing",
        )
    if cut_seats not in CUT_SEATS:
        raise TournamentError(
            _("Choose how the cut is seated: %(rules)s.") % {"rules": ", ".join(CUT_SEATS)},
            code="cut_seats",
            field="cut_seats",
        )
    if self_report not in ("off", *REPORT_RULES):
        raise TournamentError(
            _("Choose whether players report results: off, all or majority."),
            code="self_report",
            field="self_report",
        )
    scheme = POINT_PRESETS[points]
    slug = league_services.slug_new(
        model=Tournament,
        organization=league.organization,
        name=name,
        scope="league__organization",
        fallback="event",
    )
    return Tournament.objects.create(
        league=league,
        name=name.strip(),
        slug=slug,
        date=date or timezone.localdate(),
        format=format,
        pod_layout=pod_layout,
        points_win=scheme.win,
        points_draw=scheme.draw,
        points_loss=scheme.loss,
        points_bye=scheme.bye,
        swiss_rounds=swiss_rounds,
        tiebreakers=_tiebreaker_preset(tiebreakers, play=play, points=points),
        bye_rule=_bye_rule(bye_rule),
        top_cut=top_cut,
        first_round=first_round,
        round_minutes=round_minutes,
        bye_pairing=bye_pairing,
        cut_seats=cut_seats,
        self_report=self_report,
        start_time=start_time,
        place=place,
        entry_fee=entry_fee,
        fee_currency=fee_currency,
        seed=secrets.randbelow(2**31),
        created_by=acting_user(by),
    )

"""The store's organizer lists as django-tables2 tables: the claims waiting for an answer, the
store's players with their accounts, and the History (the audit log). Sortable by their
headers and paginated, drawn by templates/tables/table.html in the site's look; a cell with a
button or a list is a small template file (leagues/templates/leagues/cells/)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from audit.actors import actor_text
from audit.models import AuditEntry

from .models import Player, PlayerClaim

PER_PAGE = 50
NAME = {"th": {"class": "name"}, "td": {"class": "name"}}  # a name wraps (guildhall.css)

DECIDE = "leagues/cells/decide.html"

ACCOUNT = "leagues/cells/account.html"

CODE = "leagues/cells/code.html"


class ClaimTable(tables.Table):
    """Claims waiting: who asks, for which player, since when; Approve or Refuse."""

    account = tables.Column(accessor="user__username", verbose_name=_("Account"), attrs=NAME)
    player = tables.Column(accessor="player__name", verbose_name=_("Says they are"), attrs=NAME)
    asked = tables.DateTimeColumn(
        accessor="created_at", verbose_name=_("Asked"), format="Y-m-d H:i"
    )
    decide = tables.TemplateColumn(template_name=DECIDE, verbose_name=_("Answer"), orderable=False)

    class Meta:
        model = PlayerClaim
        fields = ()
        order_by = ("asked",)
        attrs = {"class": "claims", "aria-label": _("Claims waiting")}
        row_attrs = {"id": lambda record: f"claim-{record.pk}", "class": "claim"}
        empty_text = _("No claim waiting.")


class PlayerAccountTable(tables.Table):
    """The store's players and their accounts; a player without one gets a claim code button."""

    name = tables.Column(verbose_name=_("Player"), attrs=NAME)
    account = tables.TemplateColumn(
        template_name=ACCOUNT,
        accessor="user__username",
        verbose_name=_("Account"),
        order_by=("user__username", "name"),
        attrs=NAME,
    )
    code = tables.TemplateColumn(
        template_name=CODE,
        verbose_name=_("Claim code"),
        orderable=False,
        empty_values=(),
    )

    class Meta:
        model = Player
        fields = ()
        order_by = ("name",)
        attrs = {"class": "players-accounts"}
        row_attrs = {"id": lambda record: f"player-{record.pk}"}


WHAT = "leagues/cells/what.html"

CHANGE = "leagues/cells/change.html"

UNDO = "leagues/cells/undo.html"

HISTORY_PER_PAGE = 25


class HistoryTable(tables.Table):
    """The History page: every recorded change, newest first, sortable by when, who and what;
    each row shows what it was before and after, and its undo. The view adds `lines_before`,
    `lines_after` and `undone` to the page's entries only."""

    when = tables.DateTimeColumn(
        accessor="created_at",
        verbose_name=_("When"),
        format="Y-m-d H:i",
        order_by=("created_at", "id"),
    )
    who = tables.Column(accessor="actor_label", verbose_name=_("Who"), attrs=NAME)

    def render_who(self, value) -> str:
        return actor_text(value)  # "olive (player's link)" in the reader's language

    what = tables.TemplateColumn(
        template_name=WHAT,
        accessor="action",
        verbose_name=_("What"),
        order_by=("action", "-created_at", "-id"),
        attrs={"td": {"class": "history-what"}},
    )
    change = tables.TemplateColumn(
        template_name=CHANGE,
        verbose_name=_("Before → after"),
        orderable=False,
        empty_values=(),
        attrs={"td": {"class": "history-change"}},
    )
    undo = tables.TemplateColumn(
        template_name=UNDO,
        verbose_name=_("Undo"),
        orderable=False,
        empty_values=(),
    )

    class Meta:
        model = AuditEntry
        fields = ()
        order_by = ("-when",)
        attrs = {"class": "history", "aria-label": _("Changes")}
        row_attrs = {"id": lambda record: f"entry-{record.pk}", "class": "history-entry"}
        empty_text = _(
            "Nothing recorded yet: each change to the store's players, games and events is "
            "listed here."
        )

"""The TO's registration list as a django-tables2 table: who holds a seat, checked in when,
paid or not (a button), and their check-in and seat links; sortable by its headers, paged,
drawn by templates/tables/table.html, its cells by tournaments/console/cells/. The public
tables (pairings, standings) stay partials."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ..models import Registration

PER_PAGE = 50

HERE = "tournaments/console/cells/here.html"

PAID = "tournaments/console/cells/paid.html"

LINKS = "tournaments/console/cells/links.html"


class RegistrationTable(tables.Table):
    player = tables.Column(
        accessor="player__name",
        verbose_name=_("Player"),
        attrs={"th": {"class": "name"}, "td": {"class": "name"}},
    )
    here = tables.TemplateColumn(
        template_name=HERE,
        accessor="checked_in_at",
        verbose_name=_("Here"),
        order_by=("checked_in_at", "player__name"),
    )
    paid = tables.TemplateColumn(
        template_name=PAID, verbose_name=_("Paid"), order_by=("paid", "player__name")
    )
    links = tables.TemplateColumn(
        template_name=LINKS,
        verbose_name=_("Links"),
        orderable=False,
        empty_values=(),
        attrs={"td": {"class": "links"}},
    )

    class Meta:
        model = Registration
        fields = ()
        attrs = {"class": "registrations"}
        empty_text = _("Nobody has registered online yet.")

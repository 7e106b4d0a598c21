"""The store's organizer lists as django-tables2 tables: the claims waiting for an answer and
the store's players with their accounts. Sortable by their headers and paginated, drawn by
templates/tables/table.html in the site's look; a cell with a button is a small template."""

import django_tables2 as tables

from .models import Player, PlayerClaim

PER_PAGE = 50
NAME = {"th": {"class": "name"}, "td": {"class": "name"}}  # a name wraps (guildhall.css)

DECIDE = """<form method="post" action="{% url 'claim_decide' organization.slug record.pk %}" class="inline-actions">{% csrf_token %}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="refuse" class="secondary">Refuse</button>
</form>"""  # noqa: E501

ACCOUNT = '{% if value %}{{ value }}{% else %}<span class="muted">none</span>{% endif %}'

CODE = """{% if not record.user_id %}<form method="post" action="{% url 'claim_code_issue' organization.slug record.pk %}">{% csrf_token %}<button type="submit" class="secondary">{% if record.open_code %}New claim code{% else %}Claim code{% endif %}</button></form>{% endif %}"""  # noqa: E501


class ClaimTable(tables.Table):
    """Claims waiting: who asks, for which player, since when; Approve or Refuse."""

    account = tables.Column(accessor="user__username", verbose_name="Account", attrs=NAME)
    player = tables.Column(accessor="player__name", verbose_name="Says they are", attrs=NAME)
    asked = tables.DateTimeColumn(accessor="created_at", verbose_name="Asked", format="Y-m-d H:i")
    decide = tables.TemplateColumn(
        DECIDE, verbose_name="Answer", orderable=False, attrs={"th": {"class": "visually-hidden"}}
    )

    class Meta:
        model = PlayerClaim
        fields = ()
        order_by = ("asked",)
        attrs = {"class": "claims", "aria-label": "Claims waiting"}
        row_attrs = {"id": lambda record: f"claim-{record.pk}", "class": "claim"}
        empty_text = "None."


class PlayerAccountTable(tables.Table):
    """The store's players and their accounts; a player without one gets a claim code button."""

    name = tables.Column(verbose_name="Player", attrs=NAME)
    account = tables.TemplateColumn(
        ACCOUNT,
        accessor="user__username",
        verbose_name="Account",
        order_by=("user__username", "name"),
        attrs=NAME,
    )
    code = tables.TemplateColumn(
        CODE,
        verbose_name="Claim code",
        orderable=False,
        empty_values=(),
        attrs={"th": {"class": "visually-hidden"}},
    )

    class Meta:
        model = Player
        fields = ()
        order_by = ("name",)
        attrs = {"class": "players-accounts"}
        row_attrs = {"id": lambda record: f"player-{record.pk}"}

"""The store's organizer lists as django-tables2 tables: the claims waiting for an answer, the
store's players with their accounts, and the History (the audit log). Sortable by their
headers and paginated, drawn by templates/tables/table.html in the site's look; a cell with a
button or a list is a small template."""

import django_tables2 as tables

from audit.models import AuditEntry

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
    decide = tables.TemplateColumn(DECIDE, verbose_name="Answer", orderable=False)

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
    )

    class Meta:
        model = Player
        fields = ()
        order_by = ("name",)
        attrs = {"class": "players-accounts"}
        row_attrs = {"id": lambda record: f"player-{record.pk}"}


WHAT = """<strong class="history-action">{{ record.get_action_display }}</strong> <span class="history-summary">{{ record.summary }}</span>{% if record.reverts %}<p class="muted">Undoes \u201c{{ record.reverts.get_action_display }}\u201d of {{ record.reverts.created_at|date:"Y-m-d H:i" }} by {{ record.reverts.actor_label }}.</p>{% endif %}"""  # noqa: E501

CHANGE = """{% if record.lines_before or record.lines_after %}<div class="history-diff">
<div class="history-side"><span class="history-label">Before</span>
{% if record.lines_before %}<ul>{% for line in record.lines_before %}<li{% if line.changed %} class="was"{% endif %}>{% if line.changed %}<del>{{ line.text }}</del>{% else %}{{ line.text }}{% endif %}</li>{% endfor %}</ul>{% else %}<p class="muted">\u2014</p>{% endif %}
</div>
<div class="history-side"><span class="history-label">After</span>
{% if record.lines_after %}<ul>{% for line in record.lines_after %}<li{% if line.changed %} class="now"{% endif %}>{% if line.changed %}<ins>{{ line.text }}</ins>{% else %}{{ line.text }}{% endif %}</li>{% endfor %}</ul>{% else %}<p class="muted">{% if record.action == "game.delete" %}deleted{% elif record.action == "entry.remove" %}removed from the event{% else %}\u2014{% endif %}</p>{% endif %}
</div>
</div>{% endif %}"""  # noqa: E501

UNDO = """{% if record.undone %}<p class="muted">Undone {{ record.reverted_by.created_at|date:"Y-m-d H:i" }} by {{ record.reverted_by.actor_label }}.</p>{% elif record.is_undoable %}<form method="post" action="{% url 'audit_undo' organization.slug record.pk %}">{% csrf_token %}{% if filter_tournament %}<input type="hidden" name="tournament" value="{{ filter_tournament.slug }}">{% elif filter_league %}<input type="hidden" name="league" value="{{ filter_league.slug }}">{% endif %}<button type="submit" class="secondary">{% if record.action == "game.delete" %}Restore this game{% elif record.action == "entry.drop" %}Undo this drop{% else %}Undo this correction{% endif %}</button></form>{% endif %}"""  # noqa: E501

HISTORY_PER_PAGE = 25


class HistoryTable(tables.Table):
    """The History page: every recorded change, newest first, sortable by when, who and what;
    each row shows what it was before and after, and its undo. The view adds `lines_before`,
    `lines_after` and `undone` to the page's entries only."""

    when = tables.DateTimeColumn(
        accessor="created_at",
        verbose_name="When",
        format="Y-m-d H:i",
        order_by=("created_at", "id"),
    )
    who = tables.Column(accessor="actor_label", verbose_name="Who", attrs=NAME)
    what = tables.TemplateColumn(
        WHAT,
        accessor="action",
        verbose_name="What",
        order_by=("action", "-created_at", "-id"),
        attrs={"td": {"class": "history-what"}},
    )
    change = tables.TemplateColumn(
        CHANGE,
        verbose_name="Before \u2192 after",
        orderable=False,
        empty_values=(),
        attrs={"td": {"class": "history-change"}},
    )
    undo = tables.TemplateColumn(
        UNDO,
        verbose_name="Undo",
        orderable=False,
        empty_values=(),
    )

    class Meta:
        model = AuditEntry
        fields = ()
        order_by = ("-when",)
        attrs = {"class": "history", "aria-label": "Changes"}
        row_attrs = {"id": lambda record: f"entry-{record.pk}", "class": "history-entry"}
        empty_text = "Nothing recorded yet."

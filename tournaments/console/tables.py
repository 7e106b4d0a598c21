"""The TO's registration list as a django-tables2 table: who holds a seat, checked in when,
paid or not (a button), and their check-in and seat links; sortable by its headers, paged,
drawn by templates/tables/table.html. The public tables (pairings, standings) stay partials."""

import django_tables2 as tables

from ..models import Registration

PER_PAGE = 50

HERE = (
    '{% if value %}\u2713 {{ value|time:"H:i" }}'
    '{% else %}<span class="muted">\u2013</span>{% endif %}'
)

PAID = """<form method="post" action="{% url 'registration_paid' event.slug record.pk %}">{% csrf_token %}<input type="hidden" name="paid" value="{% if record.paid %}0{% else %}1{% endif %}"><button type="submit" class="link">{% if record.paid %}paid \u2713{% else %}mark paid{% endif %}</button></form>"""  # noqa: E501

LINKS = """<a href="{% url 'registration_check_in' event.slug record.token %}" class="help">check-in link</a> \u00b7 <a href="{% url 'my_event_link' event.slug record.token %}" class="help">seat link</a>"""  # noqa: E501


class RegistrationTable(tables.Table):
    player = tables.Column(
        accessor="player__name",
        verbose_name="Player",
        attrs={"th": {"class": "name"}, "td": {"class": "name"}},
    )
    here = tables.TemplateColumn(
        HERE,
        accessor="checked_in_at",
        verbose_name="Here",
        order_by=("checked_in_at", "player__name"),
    )
    paid = tables.TemplateColumn(PAID, verbose_name="Paid", order_by=("paid", "player__name"))
    links = tables.TemplateColumn(
        LINKS,
        verbose_name="Links",
        orderable=False,
        empty_values=(),
        attrs={"td": {"class": "links"}},
    )

    class Meta:
        model = Registration
        fields = ()
        attrs = {"class": "registrations"}
        empty_text = "Nobody has registered online yet."

"""The document's judges' penalties (judging.models.Penalty), a list in each event: written by
`penalties_export`, read by `penalties_import`. The night's calls and deck checks are not
carried (services.NOT_EXPORTED_MODELS).
"""

from django.utils.translation import gettext as _

from exchange.document import Importer, Node, build, fields
from judging.models import Penalty
from tournaments.models import Table, Tournament

# A judge's penalty (judging.models.Penalty): its round and table by number, its player by name.
# `upgrade_reason` and `result_entered` are notes as JSON keeps them (`Note.data()`, `{}` for
# none); a document written before has their English text, kept as it is (shown as written).
PENALTY_FIELDS = (
    "round_number",
    "table_number",
    "infraction",
    "rel",
    "penalty",
    "expected",
    "upgrade_reason",
    "deviation_reason",
    "note",
    "result_entered",
    "loses_game",
    "created_at",
)


def penalties_export(tournament: Tournament) -> list[dict]:
    return [
        {"player": p.entry.player.name, **fields(p, PENALTY_FIELDS)}
        for p in Penalty.objects.filter(tournament=tournament)
        .select_related("entry__player")
        .order_by("created_at", "id")
    ]


def penalties_import(state: Importer, node: Node, tournament: Tournament, entries) -> None:
    """Judges' penalties (documents written before them have none), each on its round and
    table by number when the event has them."""
    if "penalties" not in node.value:
        return
    rounds = {r.number: r for r in tournament.rounds.all()}
    tables = {
        (t.round.number, t.number): t
        for t in Table.objects.filter(round__tournament=tournament).select_related("round")
    }
    rows = []
    for penalty_node in node.items("penalties"):
        row = build(
            Penalty,
            penalty_node,
            PENALTY_FIELDS,
            tournament=tournament,
            entry=state.entry(penalty_node, entries),
        )
        if row.penalty != row.expected and not row.deviation_reason:
            raise penalty_node.error(
                "a penalty other than the expected one needs a reason", "deviation_reason"
            )
        for name in ("upgrade_reason", "result_entered"):
            value = getattr(row, name)
            if isinstance(value, str):
                setattr(row, name, {"text": value} if value else {})
            elif not isinstance(value, dict):
                raise penalty_node.error(_("must be a note"), name)
        row.round = rounds.get(row.round_number)
        row.table = tables.get((row.round_number, row.table_number))
        rows.append(row)
    Penalty.objects.bulk_create(rows)

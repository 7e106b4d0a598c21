"""What judging draws in the pages of the apps below it (their page slots, core.hooks; filled
in judging.apps): the judge call on a player's own event page (tournaments' slot
"event.player.table", in the reports room's my_event.html, inside its live part, so the page's
poll shows "a judge is coming"), and the player's own penalties."""

from django.urls import reverse

from tournaments.models import Round

from .models import JudgeCall
from .selectors import my_table, penalty_log, table_call

CALL_BOX = "judging/_call_box.html"


def judge_call_box(context, *, event, entry, token="", mine=None) -> dict:
    """The box for `entry` (None: nothing); `mine` is the page's own read of their seat
    (tournaments.selectors.reports.my_seat), so the box adds two queries: the open call at
    their table, and their penalties."""
    if entry is None:
        return {"show": False}
    table = None
    if mine is not None:
        playing = mine.round is not None and mine.round.status == Round.Status.PLAYING
        if playing and mine.table is not None and not mine.is_bye:
            table = mine.table
    else:
        table = my_table(entry)
    call = table_call(table) if table is not None else None
    action = (
        reverse("judge_call_link", kwargs={"slug": event.slug, "token": token})
        if token
        else reverse("judge_call", kwargs={"slug": event.slug})
    )
    return {
        "show": True,
        "event": event,
        "entry": entry,
        "table": table,
        "call": call,
        "mine": call is not None and call.entry_id == entry.pk,
        "reasons": [(v, label) for v, label in JudgeCall.Reason.choices if v],
        "action": action,
        "penalties": penalty_log(event, entry),
        "csrf_token": context.get("csrf_token"),
    }

"""What the tournament services announce, for the apps above to act on (notifications).

Sent inside the service's transaction, after the change is written: a receiver that writes
rows writes them with the change (they commit or roll back together) and must not do slow
work (no network): it queues that for after the commit. The services name no listener, so an
app above tournaments can listen without an import cycle.
"""

from django.dispatch import Signal

# A round's tables and seats are written (a Swiss round or a top-cut stage). kwargs: round_
round_paired = Signal()
# A waitlisted player got a seat (an Entry). kwargs: registration (status "seated", .entry set)
waitlist_promoted = Signal()
# The event is over (last Swiss round ended without a top cut, or the top cut has its
# champion). kwargs: tournament
event_finished = Signal()
# Something the event's pages show changed (every service write, through
# `page_versions.event_changed`, and an edit of the event row): a result, its correction or
# undo, a round, a drop, the top cut, the status. kwargs: tournament_id. Seasons re-score.
event_touched = Signal()

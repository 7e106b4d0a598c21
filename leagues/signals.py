"""Signals the league services send where model signals cannot: bulk writes.

`games_changed` tells listeners (the ratings app) that games of `league` from position
`since` = (played_on, game id) on were added or changed without a per-row save signal.
"""

from django.dispatch import Signal

games_changed = Signal()  # kwargs: league (League), since (tuple[date, int])

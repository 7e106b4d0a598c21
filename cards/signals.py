"""What the card data announces, for the apps above to act on (tournaments checks its open
events' lists again).

Sent inside the load's transaction, after the cards are written: a receiver's rows commit or
roll back with the cards, so nobody sees new card data next to lists checked against the old.
The cards app names no listener, so an app above it can listen without an import cycle.
"""

from django.dispatch import Signal

# A load changed the card data (a new card, a new ban, a changed text or color identity).
# No kwargs. A receiver may return one line saying what it did, printed by `load_cards`.
cards_changed = Signal()

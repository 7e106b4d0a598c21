"""What the apps above cards (tournaments) may hook (core.hooks): its signal."""

from .signals import cards_changed

# Signals (cards.signals).
signals = {
    "cards_changed": cards_changed,  # no kwargs; tournaments re-checks open events' lists
}

"""What the apps above leagues (tournaments, ratings, seasons) may hook (core.hooks): its
signals, its registry and its page slots. They fill these in their `AppConfig.ready()`.

Besides the signal below, the apps above listen to the models' own save and delete signals:
ratings to `Game` and `GameResult` (ratings.receivers), seasons to `Player` and `League`
(seasons.receivers).
"""

from core.hooks import Slot, Slots

from .deletion import delete_note_register
from .signals import games_changed

# Registries: `delete_note_register(label, notes)`, what deleting a row of an upper app's
# model says besides the rows (tournaments).
registries = {"delete_note": delete_note_register}

# Signals (leagues.signals).
signals = {
    "games_changed": games_changed,  # kwargs: league, since; the ratings app re-rates
}

# Page slots: {% slot "name" %} (core.templatetags.slots).
slots = Slots(
    Slot("home.live", doc="The home page's events being played now (above the upcoming ones)."),
    Slot("home.upcoming", doc="The home page's upcoming events, in its 'Upcoming events' card."),
)

"""The tournaments app: registers its audit actions, the undo of a table correction or a drop,
the event filter of the History page, what deleting an event says it leaves, what bumps
an event's page version, the lists checked again when the card data changes, how the History shows
its entries' fields, and the domain's sentences the scripts' catalogue carries for the phone's
own pairing."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self):
        from audit.errors import UndoRefused
        from audit.registry import action_register, fields_register, scope_register
        from cards.signals import cards_changed
        from leagues.deletion import delete_note_register

        from . import page_versions  # noqa: F401 — connects the page-version receivers
        from .actions import LABELS, Action
        from .deletion import tournament_delete_notes
        from .errors import TournamentError
        from .history_fields import history_fields
        from .models import Tournament
        from .services.decks import decks_recheck_open_events
        from .services.entries import entry_drop_undo
        from .services.results import table_undo

        def refusing(handler):
            """The handler, with a TO's error turned into the History page's refusal."""

            def undo(*, entry, by=None):
                try:
                    handler(entry=entry, by=by)
                except TournamentError as error:
                    raise UndoRefused(str(error), code=error.code) from None

            return undo

        undo = {
            Action.MATCH_CORRECT: (Action.MATCH_UNDO, refusing(table_undo)),
            Action.POD_CORRECT: (Action.POD_UNDO, refusing(table_undo)),
            Action.ENTRY_DROP: (Action.ENTRY_UNDROP, refusing(entry_drop_undo)),
        }
        for action, label in LABELS.items():
            undone_as, handler = undo.get(action, (None, None))
            action_register(action, label, undone_as=undone_as, undo=handler)

        for object_type, fields in history_fields().items():
            fields_register(object_type, fields)
        scope_register(
            "tournament",
            get=lambda organization, slug: (
                Tournament.objects.select_related("league__organization")
                .filter(slug=slug, league__organization=organization)
                .first()
            ),
            choices=lambda organization: Tournament.objects.filter(
                league__organization=organization
            ).order_by("-date", "name"),
        )
        delete_note_register("tournaments.Tournament", tournament_delete_notes)
        # The home page (leagues) shows the events being played now and the upcoming ones.
        from leagues import hooks as leagues

        from .templatetags.listing import live_events, upcoming_events

        leagues.slots["home.live"].fill("tournaments/_live.html", live_events)
        leagues.slots["home.upcoming"].fill("tournaments/_upcoming.html", upcoming_events)
        # The phone's own pairing writes the domain's sentences: the scripts' catalogue
        # carries their translations (core.views.js_catalog).
        from core import hooks as core

        from .script_words import domain_words

        core.script_words.register(domain_words)
        # New card data (a first load, a ban update): the open events' lists checked again.
        cards_changed.connect(decks_recheck_open_events, dispatch_uid="tournaments-decks-recheck")

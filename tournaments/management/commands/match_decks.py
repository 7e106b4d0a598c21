"""`match_decks [--store SLUG]`: after `load_cards`, match the decks named before card data
to cards (a Commander event's deck named exactly as one card, or two that may be partners)
and list the rest for the organizer, each with its store, event, player and why. Run it
again at any time: decks already matched are left alone."""

from django.core.management.base import BaseCommand, CommandError

from cards.selectors import cards_loaded
from leagues.models import Organization

from ...services.decks import decks_match_cards


class Command(BaseCommand):
    help = "Match decks named before card data to cards; list the ones that do not match."

    def add_arguments(self, parser):
        parser.add_argument("--store", help="Only this store (its slug).")

    def handle(self, *args, store: str | None = None, **options):
        if not cards_loaded():
            raise CommandError("No card data: run `manage.py load_cards FILE_OR_URL` first.")
        organization_id = None
        if store:
            organization = Organization.objects.filter(slug=store).first()
            if organization is None:
                raise CommandError(f"No store with the slug {store!r}.")
            organization_id = organization.pk
        matched, unmatched = decks_match_cards(organization_id=organization_id)
        self.stdout.write(f"Matched {matched} deck(s) to cards; {len(unmatched)} not matched.")
        for item in unmatched:
            entry = item.entry
            event = entry.tournament
            self.stdout.write(
                f"{event.league.organization.name} · {event.name} ({event.date}) · "
                f"{entry.player.name}: “{entry.deck_name}”: {item.reason}"
            )

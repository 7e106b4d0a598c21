"""The cards app: Magic card data loaded from a Scryfall bulk file, and decklists checked
against it. A store that never loads cards keeps free-text decks."""

from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"

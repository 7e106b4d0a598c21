"""The exchange app: export_organization and import_organization (no models of its own)."""

from django.apps import AppConfig


class ExchangeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "exchange"

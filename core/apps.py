"""The core app: the bottom layer's one table, the public pages' versions (core.pagecache)."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

"""The accounts app: a player's own pages ("My Guildhall", entering a claim code) and the
glue to django-allauth (its adapters and the log-in form), above every domain app."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

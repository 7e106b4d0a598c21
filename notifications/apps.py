from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self):
        from jobs.registry import sweep_register

        from . import receivers, services

        receivers.connect()
        sweep_register(services.deliveries_sweep)

"""The ratings app: connects its signal receivers and registers its background jobs."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self):
        from jobs.registry import kind_register, sweep_register
        from leagues.jobs import IMPORT_APPLY, import_page

        from . import (
            job_kinds,
            jobs,
            receivers,  # noqa: F401 — connects the signal receivers
            services,
        )

        for name, label, handler, page in (
            (IMPORT_APPLY, _("Importing the games"), jobs.import_apply, import_page),
            (job_kinds.RERATE, _("Re-rating the league"), jobs.rerate, jobs.rating_settings_page),
            (job_kinds.CATCH_UP, _("Re-rating the league"), jobs.catch_up, jobs.league_page),
            (job_kinds.LAB, _("Running the rating lab"), jobs.lab, jobs.lab_page),
        ):
            kind_register(name, label=label, handler=handler, page=page)
        sweep_register(services.ratings_sweep)  # markers whose catch-up was lost

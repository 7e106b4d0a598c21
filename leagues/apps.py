"""The leagues app: registers its audit actions (and the undo of a game correction or
deletion), its background job, who may follow a job, and what bumps a store's page version."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self):
        from audit.registry import action_register
        from jobs.registry import kind_register, league_access_register

        from . import (
            jobs,
            page_versions,  # noqa: F401 — connects the page-version receivers
            services,
        )
        from .actions import LABELS, Action

        undo = {
            Action.GAME_CORRECT: (Action.GAME_UNDO, services.game_correction_undo),
            Action.GAME_DELETE: (Action.GAME_RESTORE, services.game_delete_undo),
        }
        for action, label in LABELS.items():
            undone_as, handler = undo.get(action, (None, None))
            action_register(action, label, undone_as=undone_as, undo=handler)

        kind_register(
            jobs.IMPORT_PREVIEW,
            label=_("Reading the file"),
            handler=jobs.import_preview,
            page=jobs.import_page,
        )
        league_access_register(jobs.job_league)

"""The core app: the bottom layer's one table, the public pages' versions (core.pagecache),
and the site's look: static/guildhall/ holds the stylesheet and icon every page links
(templates/base.html, the projector, the 500 page), whichever app draws the page."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self) -> None:
        # The pure domain's refusals translate through Django from now on (core/translate.py).
        from django.utils import translation

        from . import formats, languages, translate  # noqa: F401 (languages: its log-in receiver)

        translate.install(translation.gettext, translation.ngettext, translation.pgettext)
        formats.install()

"""Guildhall's named date formats in pl (core/formats/__init__.py)."""

from core.formats.en.formats import *  # noqa: F403 (the English ones; this language's own below)

GH_DATE_LONG = "j E Y"
GH_DAY_LONG = "l j E Y"

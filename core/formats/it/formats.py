"""Guildhall's named date formats in it (core/formats/__init__.py)."""

from core.formats.en.formats import *  # noqa: F403 (written as in English)

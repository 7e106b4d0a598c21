"""The rating lab of a league, computed once per state of the league and kept.

`lab_compute` replays the league with every system (the pure `domain.lab.evaluate`) and
returns plain JSON; a job keeps it as its result, under the league's fingerprint (when it was
last rated, its system and parameters), so the lab page reads it back in milliseconds until a
game or the rating settings change. Small leagues are computed in the request.
"""

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import asdict, replace

from django.utils.translation import gettext

from leagues.models import League

from . import ledger
from .domain.lab import LabResult, evaluate
from .domain.registry import SYSTEMS, make_system
from .services import rating_settings_read

LAB_MAX_GAMES = 20_000  # bigger leagues use their latest games
PROGRESS_STEP = 500


def lab_fingerprint(*, league: League) -> str:
    settings = rating_settings_read(league=league)
    state = [
        settings.rated_at.isoformat() if settings.rated_at else "",
        settings.system,
        settings.params,
    ]
    digest = hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()
    return digest[:32]


def lab_compute(*, league: League, progress: Callable[[int, int], None] | None = None) -> dict:
    settings = rating_settings_read(league=league)
    games = ledger.games_from(league.pk, ledger.START, with_stats=True)
    truncated = max(0, len(games) - LAB_MAX_GAMES)
    games = games[truncated:]
    systems = [make_system(name) for name in SYSTEMS]
    current = make_system(settings.system, settings.params)
    if current.params() != make_system(settings.system).params():
        systems.insert(0, current)  # the league's own tuning, beside the defaults

    def finishes() -> Iterator:
        for done, game in enumerate(games):
            if progress and done % PROGRESS_STEP == 0:
                progress(done, len(games))
            yield game.finish

    results = evaluate(finishes(), systems)
    return {
        "fingerprint": lab_fingerprint(league=league),
        "results": [asdict(r) for r in results],
        "games": len(games),
        "truncated": truncated,
        "current": settings.system,
        "current_params": settings.params,
    }


def lab_results(data: dict) -> list[LabResult]:
    """The kept figures, the baseline's label in the reader's language (kept in English)."""
    results = [LabResult(**row) for row in data["results"]]
    return [replace(r, label=gettext(r.label)) if r.system == "random" else r for r in results]

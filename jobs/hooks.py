"""What the apps above jobs (leagues, ratings, seasons, notifications) may hook: its
registries (jobs.registry, filled from their `AppConfig.ready()`), declared here in one place.

- `kind_register(name, label=, handler=, page=)`: a kind of job (leagues, ratings);
- `league_access_register(check)`: who may follow a job's page (leagues, one);
- `sweep_register(fn)`: background work the worker's reaper picks up again (seasons,
  notifications).
"""

from .registry import kind_register, league_access_register, sweep_register

registries = {
    "kind": kind_register,
    "league_access": league_access_register,
    "sweep": sweep_register,
}

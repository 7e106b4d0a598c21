"""What the apps above audit (leagues, tournaments, judging, ratings...) may hook: its
registries (audit.registry, filled from their `AppConfig.ready()`), declared here in one place.

- `action_register(code, label, undone_as=, undo=)`: an action the History trail records, and
  its undo;
- `scope_register(name, get=, choices=)`: a thing of an app above leagues that the History
  page narrows to ("tournament");
- `fields_register(object_type, fields)`: how the History shows the data an entry of that
  kind keeps before and after (each key's label, a coded value's label).
"""

from .registry import action_register, fields_register, scope_register

registries = {
    "action": action_register,
    "scope": scope_register,
    "fields": fields_register,
}

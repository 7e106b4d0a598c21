"""Declared extension points: how an upper app extends a lower one it may not be imported by.

Each app that upper apps extend has one `hooks.py` declaring, in one place, what they may hook:

- its signals (Django's `Signal`, sent by the app, received by the apps above);
- its readers (`Reader`): questions the app asks every upper app that registered an answer,
  combining the answers (a set union, a list, a dict of lists);
- its page slots (`Slots`): named places in its templates, `{% slot "name" key=value %}`
  (core.templatetags.slots), that an upper app fills at start-up with a template of its own
  and a context function.

An upper app fills them in its `AppConfig.ready()`, so that reading its apps.py top to bottom
says what it adds to the apps below. Registering twice the same function is a no-op (tests and
`ready()` may run more than once).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


class Reader:
    """A question an app asks the apps above it: `reader(*args)` calls every registered
    function in registration order and gives their answers to `combine` (a list of answers
    by default)."""

    def __init__(
        self,
        name: str,
        *,
        doc: str = "",
        combine: Callable[[list], Any] = list,
    ) -> None:
        self.name = name
        self.doc = doc
        self.combine = combine
        self.readers: list[Callable] = []

    def register(self, read: Callable) -> Callable:
        if read not in self.readers:
            self.readers.append(read)
        return read

    def __bool__(self) -> bool:
        return bool(self.readers)

    def answers(self, *args, **kwargs) -> list:
        return [read(*args, **kwargs) for read in self.readers]

    def __call__(self, *args, **kwargs) -> Any:
        return self.combine(self.answers(*args, **kwargs))

    def __repr__(self) -> str:
        return f"<Reader {self.name}: {len(self.readers)} registered>"


def union(answers: Iterable[Iterable]) -> frozenset:
    """Combine answers that are sets into one."""
    return frozenset().union(*answers)


def concat(answers: Iterable[Iterable]) -> list:
    """Combine answers that are lists into one, in registration order."""
    return [item for answer in answers for item in answer]


@dataclass(frozen=True)
class Filling:
    """What an upper app puts in a slot: a template of its own, drawn with the dict its
    `context` function returns for the page's template context and the slot tag's arguments."""

    template_name: str
    context: Callable[..., dict]


@dataclass
class Slot:
    """A named place in a lower app's templates that upper apps fill."""

    name: str
    doc: str = ""
    fillings: list[Filling] = field(default_factory=list)

    def fill(self, template_name: str, context: Callable[..., dict]) -> None:
        filling = Filling(template_name, context)
        if filling not in self.fillings:
            self.fillings.append(filling)


class UnknownSlot(KeyError):
    pass


class Slots:
    """An app's page slots, by name; every slot of the site is also in `ALL_SLOTS`, which the
    `{% slot %}` tag reads. An unknown name is an error when it is filled (at start-up) and
    when a template draws it."""

    def __init__(self, *slots: Slot) -> None:
        self._slots: dict[str, Slot] = {}
        for slot in slots:
            if slot.name in ALL_SLOTS:
                raise ValueError(f"slot {slot.name!r} is declared twice")
            self._slots[slot.name] = slot
            ALL_SLOTS[slot.name] = slot

    def __getitem__(self, name: str) -> Slot:
        try:
            return self._slots[name]
        except KeyError:
            raise UnknownSlot(f"no slot {name!r} here; declared: {sorted(self._slots)}") from None

    def __iter__(self):
        return iter(self._slots.values())


ALL_SLOTS: dict[str, Slot] = {}


def slot(name: str) -> Slot:
    """The slot `name` of whichever app declares it (every installed app's hooks.py is read
    the first time a slot is not known yet, so a page draws its slots whether or not an
    upper app imported the hooks.py that declares them)."""
    if name not in ALL_SLOTS:
        from django.utils.module_loading import autodiscover_modules

        autodiscover_modules("hooks")
    try:
        return ALL_SLOTS[name]
    except KeyError:
        raise UnknownSlot(f"no slot {name!r} is declared (an app's hooks.py)") from None


# --- core's own -----------------------------------------------------------------------------

script_words = Reader(
    "script_words",
    doc=(
        "Messages of the Python catalogue (django.po) that a script writes too: the pure "
        "domain's sentences, which the phone's own pairing raises in English with their values "
        "apart. Each answer is a set of msgids: a msgid, a 'context\\x04msgid' key, or a "
        "(msgid, plural) pair. The scripts' catalogue (core.views.js_catalog) carries their "
        "translations beside its own."
    ),
    combine=union,
)

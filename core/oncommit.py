"""Work that catches up once per commit, however many writes of the transaction asked for it.

A write that makes some derived state stale (a league's ratings, a season's table) marks it in
its own transaction and asks for a catch-up after commit. A transaction that changes a hundred
games asks a hundred times; the catch-up must run once, after the commit, and not at all if the
transaction rolls back:

    once_per_commit(("ratings", league_id), lambda: ratings_catch_up(league_id=league_id))

`once_per_commit(key, fn)` queues `fn` with Django's `transaction.on_commit(..., robust=True)`
(an exception is logged and the other callbacks still run), and of everything queued under the
same `key` on the connection before that commit only the first callback to run calls its `fn`;
the rest are skipped. Outside an atomic block there is nothing to wait for, and `fn` runs at
once, as `on_commit` runs it.

Why every call queues a (cheap) callback rather than only the first one: Django drops the
callbacks queued inside a savepoint that rolls back, and says nothing. If only the first call
had queued, a rolled-back savepoint could take the only callback with it while a later write
of the same transaction, which did commit, still needs the catch-up. Queuing each time and
skipping all but the first that runs is right whatever was rolled back, and needs nothing of
the connection's undocumented list of pending callbacks.

The keys are kept per connection (each thread has its own): the first callback of a key to run
forgets the key, so a write after that commit, in the next transaction or inside the catch-up
itself, queues a fresh catch-up.
"""

import weakref
from collections.abc import Callable, Hashable

from django.db import transaction

# Per connection: each key's pending batch, a one-element list holding whether it ran.
_pending: "weakref.WeakKeyDictionary[object, dict[Hashable, list[bool]]]" = (
    weakref.WeakKeyDictionary()
)


def once_per_commit(key: Hashable, fn: Callable[[], object], *, using: str | None = None) -> None:
    """Run `fn` after the current transaction commits, once for all the calls with `key`
    before that commit; at once outside an atomic block."""
    conn = transaction.get_connection(using)
    if not conn.in_atomic_block:
        transaction.on_commit(fn, using=using, robust=True)
        return
    pending = _pending.setdefault(conn, {})
    batch = pending.setdefault(key, [False])

    def run() -> None:
        if batch[0]:
            return
        batch[0] = True
        if pending.get(key) is batch:
            del pending[key]
        fn()

    transaction.on_commit(run, using=using, robust=True)

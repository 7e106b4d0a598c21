"""Run test jobs at the same moment, each in its own thread with its own database connection.

A barrier releases every thread together, so the jobs really race; each thread closes its
connections when done. Used with `django_db(transaction=True)` by the concurrency tests.
"""

import threading

from django.db import connections


def run_together(*jobs) -> list:
    """Each job's return value, or the exception it raised, in job order."""
    barrier = threading.Barrier(len(jobs))
    outcomes: list = [None] * len(jobs)

    def run(index, job):
        barrier.wait()
        try:
            outcomes[index] = job()
        except Exception as error:
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes

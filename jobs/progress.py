"""Progress for management commands: a tqdm bar on a terminal, plain lines otherwise.

`command_progress(stream, label)` returns a `progress(done, total)` callable (the shape every
service with progress takes) and a `close()`; on a pipe or in a log file it writes a line at
each tenth of the way, so a cron job's log shows that work moves without carriage returns.
"""

from tqdm import tqdm


class CommandProgress:
    def __init__(self, stream, label: str):
        self.stream, self.label = stream, label
        out = getattr(stream, "_out", stream)
        self.tty = bool(getattr(out, "isatty", lambda: False)())
        self.bar: tqdm | None = None
        self.out = out
        self.last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        if self.tty:
            if self.bar is None:
                self.bar = tqdm(total=total, desc=self.label, file=self.out, unit="game")
            self.bar.total = total
            self.bar.update(done - self.bar.n)
            return
        tenth = 10 * done // total if total else 10
        if tenth > self.last_tenth:
            self.last_tenth = tenth
            self.out.write(f"{self.label}: {10 * tenth} % ({done} / {total})\n")
            self.out.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

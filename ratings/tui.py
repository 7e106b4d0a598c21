"""`manage.py rankings --tui`: the leaderboard in the terminal, like Guildmaster's TUI.

Up/down (or k/j) move the highlight, PgUp/PgDn and Home/End jump, q or Esc quits. The
scrolling rules live in `Viewport`, a plain class tested without a terminal.
"""

import curses
from dataclasses import dataclass

from .selectors import format_rating


@dataclass
class Viewport:
    """Which rows are on screen and which one is highlighted."""

    count: int
    height: int
    top: int = 0
    selected: int = 0

    def move(self, step: int) -> None:
        if self.count == 0:
            return
        self.selected = min(max(self.selected + step, 0), self.count - 1)
        if self.selected < self.top:
            self.top = self.selected
        elif self.selected >= self.top + self.height:
            self.top = self.selected - self.height + 1

    def resize(self, height: int) -> None:
        self.height = max(height, 1)
        self.move(0)

    def visible(self) -> range:
        return range(self.top, min(self.top + self.height, self.count))


KEYS = {
    curses.KEY_UP: -1,
    ord("k"): -1,
    curses.KEY_DOWN: 1,
    ord("j"): 1,
}


def browse(league, rows, system) -> None:
    curses.wrapper(_run, league, rows, system)


def _run(screen, league, rows, system) -> None:
    curses.curs_set(0)
    screen.keypad(True)
    view = Viewport(count=len(rows), height=1)
    while True:
        height, width = screen.getmaxyx()
        view.resize(height - 4)
        screen.erase()
        title = f" {league.name} — {len(rows)} players "
        screen.addnstr(0, 0, title.center(width - 1, "─"), width - 1, curses.A_BOLD)
        screen.addnstr(1, 0, f"{'rank':>5}  {'player':<30} {'rating':>8} {'games':>6}", width - 1)
        for line, index in enumerate(view.visible(), start=2):
            row = rows[index]
            rank = f"{row.rank}{'=' if row.tied else ''}"
            text = (
                f"{rank:>5}  {row.name[:30]:<30} {format_rating(row.rating, system):>8} "
                f"{row.games:>6}"
            )
            attr = curses.A_REVERSE if index == view.selected else curses.A_NORMAL
            screen.addnstr(line, 0, text, width - 1, attr)
        footer = " ↑/↓ move · PgUp/PgDn page · Home/End · q quit "
        screen.addnstr(height - 1, 0, footer.center(width - 1, "─"), width - 1)
        screen.refresh()
        key = screen.getch()
        if key in (ord("q"), ord("Q"), 27):
            return
        if key in KEYS:
            view.move(KEYS[key])
        elif key == curses.KEY_NPAGE:
            view.move(view.height)
        elif key == curses.KEY_PPAGE:
            view.move(-view.height)
        elif key == curses.KEY_HOME:
            view.move(-view.count)
        elif key == curses.KEY_END:
            view.move(view.count)

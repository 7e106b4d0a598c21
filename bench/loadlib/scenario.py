"""The Friday night: the event, its judges working the TO console and its visitors refreshing.

`build_event` creates the store, its public league, a cEDH pod event of `--players` players and
the judge accounts. Each `Judge` thread logs in and, like a phone, owns the pods whose number is
its own modulo the judges: taps a winner (or Draw) through the htmx endpoint, sometimes corrects
a pod, resubmits a stale form (the site must answer 409) or double-taps (a no-op 200); judge 0
ends each round once every pod is in and pairs the next; after the last Swiss round the judges
make late corrections. Each `Visitor` thread refreshes the public pages every `--think` seconds
on average. What the judges saw and entered goes into the `Ledger`, which `verify` checks the
database against.
"""

import random
import secrets
import threading
import time
from dataclasses import dataclass, field

from .client import Client, Recorder
from .pages import Pod, read_cards, read_console

DB_NAME = "guildhall_load"
PASSWORD = "friday-night-" + secrets.token_hex(8)
ORG, LEAGUE, EVENT = "load-store", "load-commander", "friday-cedh"
VISITOR_PAGES = [  # (label, path template, weight, htmx)
    ("pairings", "/events/{event}/", 40, False),
    ("standings", "/events/{event}/standings/", 40, False),
    ("projector", "/events/{event}/projector/", 10, True),
    ("league standings", "/leagues/{league}/", 10, False),
]


@dataclass
class Ledger:
    """What the judges know: every pod they saw, and the result last accepted per pod."""

    pods: dict[int, Pod] = field(default_factory=dict)
    accepted: dict[int, int | None] = field(default_factory=dict)  # table -> winner entry/None
    # Results sent since the last acceptance that got no answer: stored or not, nobody knows.
    unanswered: dict[int, list[int | None]] = field(default_factory=dict)
    stale_sent: int = 0
    stale_refused: int = 0
    stale_unanswered: int = 0
    stale_accepted: list[int] = field(default_factory=list)  # must stay empty
    corrections: int = 0
    double_taps: int = 0
    rounds_paired: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Judge(threading.Thread):
    def __init__(self, index, count, port, recorder, ledger, planned_rounds, pause, rng_seed):
        super().__init__(name=f"judge-{index}", daemon=True)
        self.index, self.count = index, count
        self.client = Client(port, recorder)
        self.recorder: Recorder = recorder
        self.ledger: Ledger = ledger
        self.planned_rounds, self.pause = planned_rounds, pause
        self.rng = random.Random(rng_seed)
        self.console = f"/events/{EVENT}/run/"

    def run(self) -> None:
        try:
            while self.recorder.running() and not self.login():
                time.sleep(0.5)
            while self.recorder.running():
                self.work()
        finally:
            self.client.close()

    def login(self) -> bool:
        return judge_login(self.client, self.index)

    def nap(self, seconds: float) -> None:
        self.recorder.stop.wait(seconds)

    def work(self) -> None:
        status, text = self.client.request("judge: console", "GET", self.console)
        if status != 200:
            self.nap(0.5)  # the site is down, or restarting: try again
            return
        console = read_console(text)
        number, pods = console.round, console.pods
        with self.ledger.lock:
            for pod in pods:
                self.ledger.pods.setdefault(pod.table_id, pod)
        mine = [p for p in pods if p.number % self.count == self.index % self.count]
        if number is None or console.status == "complete":
            if self.index == 0 and (number or 0) < self.planned_rounds:
                self.pair()
            elif number:
                self.late_correction(mine)
            else:
                self.nap(self.pause)
            return
        todo = [p for p in mine if not p.reported]
        for pod in todo:
            if not self.recorder.running():
                return
            self.enter(pod)
            self.nap(self.pause)
        if self.index == 0 and console.all_reported and not todo:
            self.end_round(number)
        elif not todo:
            self.nap(self.pause)

    def result(self, pod: Pod, *, other_than: int | str | None = "nothing") -> int | None:
        """A random winner (a draw one time in twenty), different from `other_than` if given."""
        choices: list[int | None] = [*pod.seats, None]
        if other_than != "nothing":
            choices = [c for c in choices if c != other_than]
        if None in choices and self.rng.random() >= 0.05:
            choices.remove(None)
        return self.rng.choice(choices)

    def submit(self, pod: Pod, winner: int | None, version: int, label: str, expect):
        """Post a result as the card's button does; (status, the card's version in the answer)."""
        data = {"version": str(version)}
        if winner is None:
            data["result"] = "draw"
        else:
            data["winner"] = str(winner)
        url = f"/events/{EVENT}/tables/{pod.table_id}/report/"
        status, text = self.client.request(label, "POST", url, data, htmx=True, expect=expect)
        if status not in (200, 409):
            return status, None
        card = next((c for c in read_cards(text) if c.table_id == pod.table_id), None)
        return status, card.version if card else None

    def accept(self, pod: Pod, winner: int | None) -> int | None:
        """Submit until the site answers: a failed request (an outage) may or may not have
        been stored, so read the console again and resubmit the same result; the stored
        version makes a repeat of an already stored result a no-op."""
        version = pod.version
        while True:
            status, new_version = self.submit(pod, winner, version, "judge: report", (200,))
            with self.ledger.lock:
                if status == 200:
                    self.ledger.accepted[pod.table_id] = winner
                    self.ledger.unanswered.pop(pod.table_id, None)
                    return new_version
                self.ledger.unanswered.setdefault(pod.table_id, []).append(winner)
            if not self.recorder.running():
                return None
            self.nap(0.3)
            version = self.fresh_version(pod)
            if version is None:
                return None

    def fresh_version(self, pod: Pod) -> int | None:
        while self.recorder.running():
            status, text = self.client.request("judge: console", "GET", self.console)
            if status == 200:
                for seen in read_console(text).pods:
                    if seen.table_id == pod.table_id:
                        return seen.version
                url = f"/events/{EVENT}/rounds/{pod.round}/"
                status, text = self.client.request("judge: round", "GET", url)
                if status == 200:
                    for seen in read_cards(text, round_number=pod.round):
                        if seen.table_id == pod.table_id:
                            return seen.version
            self.nap(0.5)
        return None

    def enter(self, pod: Pod) -> None:
        first = self.result(pod)
        version = self.accept(pod, first)
        if version is None:
            return
        roll = self.rng.random()
        if roll < 0.05:  # a double tap: the same result on the same (now stale) form
            status, _ = self.submit(pod, first, pod.version, "judge: double tap", (200,))
            with self.ledger.lock:
                self.ledger.double_taps += status == 200
        elif roll < 0.20:  # the judge sees it was wrong and corrects it
            corrected = self.result(pod, other_than=first)
            stale_form = pod.version
            pod.version = version
            if self.accept(pod, corrected) is None:
                return
            with self.ledger.lock:
                self.ledger.corrections += 1
            if self.rng.random() < 0.5:  # a second phone still shows the old form
                self.stale(pod, stale_form, other_than=corrected)

    def stale(self, pod: Pod, version: int, *, other_than: int | None) -> None:
        wrong = self.result(pod, other_than=other_than)
        status, _ = self.submit(pod, wrong, version, "judge: stale form (409)", (409,))
        with self.ledger.lock:
            self.ledger.stale_sent += 1
            self.ledger.stale_refused += status == 409
            self.ledger.stale_unanswered += status == 0 or status >= 500  # an outage
            if status == 200:
                self.ledger.stale_accepted.append(pod.table_id)

    def late_correction(self, mine: list[Pod]) -> None:
        """After the last round: now and then a dispute settled, on one of this judge's pods."""
        self.nap(self.pause * 10)
        if not mine or not self.recorder.running():
            return
        pod = self.rng.choice(mine)
        with self.ledger.lock:
            current = self.ledger.accepted.get(pod.table_id, "nothing")
        stale_form = pod.version
        if self.accept(pod, self.result(pod, other_than=current)) is not None:
            with self.ledger.lock:
                self.ledger.corrections += 1
            if self.rng.random() < 0.5 and stale_form is not None:
                with self.ledger.lock:
                    now = self.ledger.accepted[pod.table_id]
                self.stale(pod, stale_form, other_than=now)

    def end_round(self, number: int) -> None:
        url = f"/events/{EVENT}/rounds/{number}/end/"
        self.client.request("judge: end round", "POST", url, {}, expect=(302,))

    def pair(self) -> None:
        status, _ = self.client.request(
            "judge: pair round", "POST", f"/events/{EVENT}/pair/", {}, expect=(302,)
        )
        if status == 302:
            with self.ledger.lock:
                self.ledger.rounds_paired += 1
        else:
            self.nap(0.5)


class Visitor(threading.Thread):
    def __init__(self, port, recorder, think, rng_seed):
        super().__init__(daemon=True)
        self.client = Client(port, recorder)
        self.recorder, self.think = recorder, think
        self.rng = random.Random(rng_seed)

    def run(self) -> None:
        weights = [w for _, _, w, _ in VISITOR_PAGES]
        try:
            self.recorder.stop.wait(self.rng.uniform(0, self.think))  # arrive spread out
            while self.recorder.running():
                label, path, _, htmx = self.rng.choices(VISITOR_PAGES, weights)[0]
                path = path.format(event=EVENT, league=LEAGUE)
                self.client.request(f"visitor: {label}", "GET", path, htmx=htmx)
                self.recorder.stop.wait(self.rng.uniform(0.5, 1.5) * self.think)
        finally:
            self.client.close()


def build_event(*, players: int, judges: int) -> int:
    """Store, public league, pod event with `players` registered, judge accounts; returns the
    number of Swiss rounds planned for that field."""
    from leagues.models import League, Organization
    from tournaments.selectors import suggested_structure
    from tournaments.services.entries import entry_register
    from tournaments.services.events import tournament_create

    organization = Organization.objects.create(name="Load Test Games", slug=ORG)
    league = League.objects.create(
        organization=organization, name="Friday Commander", slug=LEAGUE, is_public=True
    )
    event = tournament_create(league=league, name="Friday cEDH", format="pods")
    event.slug = EVENT
    event.save(update_fields=["slug"])
    for n in range(players):
        entry_register(tournament=event, name=f"Player {n:03d}", create_player=True)
    judges_create(organization, judges)
    return suggested_structure(event, players)[0]


def judge_login(client: Client, index: int) -> bool:
    """Log judge `index` in through the log-in form (judges_create's account)."""
    status, _ = client.request("judge: login", "GET", "/accounts/login/")
    if status != 200:
        return False
    status, _ = client.request(
        "judge: login",
        "POST",
        "/accounts/login/",
        {"login": f"judge{index}", "password": PASSWORD},
        expect=(302,),
    )
    return status == 302


def judges_create(organization, judges: int) -> None:
    """Accounts judge0.. (password PASSWORD), judges of the store."""
    from django.contrib.auth import get_user_model

    from leagues.models import Membership, Role

    User = get_user_model()
    hashed = None
    for n in range(judges):
        user = User(username=f"judge{n}", is_staff=True)
        if hashed is None:  # hash once (PBKDF2 is slow on purpose), share the hash
            user.set_password(PASSWORD)
            hashed = user.password
        user.password = hashed
        user.save()
        Membership.objects.create(user=user, organization=organization, role=Role.JUDGE)

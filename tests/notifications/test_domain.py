"""The pure rules: which webhook addresses a store may set, the retry schedule and what an
HTTP answer means, and what the messages say (no database)."""

import ipaddress

import pytest

from notifications.domain import messages, retry
from notifications.domain.webhooks import (
    address_is_public,
    webhook_url_problem,
    webhook_url_shown,
)


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.com/api/webhooks/1234567890/AbCdEf-token_x",
        "https://hooks.slack.com/services/T000/B000/XXXX",
        "https://chat.example.org:8443/hook",
    ],
)
def test_webhook_addresses_a_store_may_set(url):
    assert webhook_url_problem(url) is None


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://discord.com/api/webhooks/1/x", "must start with https://"),
        ("discord.com/api/webhooks/1/x", "not a web address"),
        ("ftp://discord.com/x", "not a web address"),
        ("https://", "not a web address"),
        ("https://discord.com/api webhooks", "has a space"),
        ("https://localhost/hook", "names this server itself"),
        ("https://127.0.0.1:9000/hook", "names this server itself"),
        ("https://[::1]/hook", "names this server itself"),
        ("https://10.0.0.5/hook", "private network"),
        ("https://192.168.1.20/hook", "private network"),
        ("https://169.254.169.254/latest", "private network"),
        # Carrier-grade NAT (RFC 6598) and a cloud metadata service inside it.
        ("https://100.64.0.1/", "private network"),
        ("https://100.100.100.200/latest/meta-data", "private network"),
        ("https://[::ffff:10.0.0.1]/hook", "private network"),
        ("https://[fd00::1]/hook", "private network"),
        ("https://224.0.0.1/hook", "private network"),
        ("https://0.0.0.0/hook", "private network"),
        ("https://intranet/hook", "full host name"),
        ("https://user:pw@discord.com/hook", "user name or password"),
        ("https://discord.com:99999/hook", "not a web address"),
        ("https://discord.com/" + "x" * 500, "longer than 500"),
    ],
)
def test_webhook_addresses_refused_with_the_reason(url, why):
    assert why in webhook_url_problem(url)


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("162.159.128.233", True),  # discord.com
        ("2606:4700::6810:84e5", True),
        ("100.63.255.255", True),  # just below the shared address space
        ("100.64.0.0", False),
        ("100.127.255.255", False),
        ("100.128.0.0", True),  # just above it
        ("10.0.0.1", False),
        ("172.16.0.1", False),
        ("192.168.0.1", False),
        ("127.0.0.1", False),
        ("169.254.169.254", False),
        ("0.0.0.0", False),
        ("255.255.255.255", False),
        ("224.0.0.251", False),  # multicast: "global" to Python 3.11
        ("192.0.2.1", False),  # documentation
        ("198.18.0.1", False),  # benchmarking
        ("::1", False),
        ("::", False),
        ("fe80::1", False),
        ("fd12:3456::1", False),
        ("::ffff:127.0.0.1", False),  # IPv4-mapped
        ("::ffff:162.159.128.233", False),  # mapped: is_global says no, so no
        ("2002:7f00:1::", False),  # 6to4 around 127.0.0.1
        ("2002:a29f:80e9::", True),  # 6to4 around a public address
        ("64:ff9b::7f00:1", False),  # NAT64 around 127.0.0.1
        ("ff02::1", False),
    ],
)
def test_which_addresses_are_public(address, public):
    assert address_is_public(ipaddress.ip_address(address)) is public


def test_http_to_this_machine_only_for_a_local_test_receiver():
    assert webhook_url_problem("http://127.0.0.1:8123/hook", allow_local_http=True) is None
    assert webhook_url_problem("http://localhost:8123/hook", allow_local_http=True) is None
    assert "https://" in webhook_url_problem("http://example.com/hook", allow_local_http=True)
    assert "https://" in webhook_url_problem("http://127.0.0.1:8123/hook")


def test_a_webhooks_secret_is_not_shown():
    shown = webhook_url_shown("https://discord.com/api/webhooks/123/AbCdEfGhIjKl")
    assert shown == "https://discord.com/api/webhooks/123/AbCd…"


def test_the_retry_schedule_then_giving_up():
    waits = [retry.http_outcome(n, 500).retry_in for n in range(1, 6)]
    assert waits == [30, 120, 600, 3600, None]


@pytest.mark.parametrize(
    ("status", "sent", "retry_in"),
    [(200, True, None), (204, True, None), (400, False, None), (401, False, None),
     (404, False, None), (301, False, None), (500, False, 30), (503, False, 30)],
)  # fmt: skip
def test_what_an_answer_means(status, sent, retry_in):
    outcome = retry.http_outcome(1, status)
    assert (outcome.sent, outcome.retry_in) == (sent, retry_in)


def test_a_429_waits_what_it_asks_within_bounds():
    assert retry.http_outcome(1, 429, retry_after=2.5).retry_in == 2.5
    assert retry.http_outcome(1, 429, retry_after=0).retry_in == 1.0
    assert retry.http_outcome(1, 429, retry_after=86400).retry_in == 3600.0
    assert retry.http_outcome(5, 429, retry_after=2).retry_in is None  # the fifth attempt


@pytest.mark.parametrize(
    ("body", "header", "wait"),
    [({"retry_after": 1.5}, None, 1.5), ({"retry_after": 2}, "9", 2.0), (None, "9", 9.0),
     ({"retry_after": "soon"}, None, None), (None, "Wed, 21 Oct 2026 07:28:00 GMT", None),
     ({"retry_after": True}, None, None), (None, None, None)],
)  # fmt: skip
def test_reading_the_wait_a_429_asks_for(body, header, wait):
    assert retry.retry_after_seconds(body, header) == wait


def test_the_pairing_mail_names_event_round_table_seat_and_opponents():
    mail = messages.paired_email(
        event="Friday Commander",
        round_label="Round 3",
        table=7,
        seat=2,
        opponents=["Ann", "Bob", "Cy"],
        bye=False,
        link="https://x.example/events/friday/?round=3",
        player="Dee",
    )
    assert mail.subject == "Friday Commander: Round 3, table 7"
    assert "you play at table 7, 2nd seat, against Ann, Bob, Cy." in mail.body
    assert "https://x.example/events/friday/?round=3" in mail.body


def test_a_pod_events_mail_says_pod():
    """Issue 31 #10: pod mails said "table" where the pod pages say "pod"."""
    mail = messages.paired_email(
        event="Friday Commander",
        round_label="Round 3",
        table=7,
        seat=2,
        opponents=["Ann", "Bob", "Cy"],
        bye=False,
        link="L",
        player="Dee",
        noun="pod",
    )
    assert mail.subject == "Friday Commander: Round 3, pod 7"
    assert "you play at pod 7, 2nd seat, against Ann, Bob, Cy." in mail.body
    assert "table" not in mail.body


def test_a_bye_says_so():
    mail = messages.paired_email(
        event="E", round_label="Round 2", table=9, seat=1, opponents=[], bye=True, link="L",
        player="P",
    )  # fmt: skip
    assert mail.subject == "E: Round 2, you have a bye"


def test_the_standings_message_fits_discord_however_long_the_names():
    rows = [messages.StandingRow(n, False, "N" * 300, 9.0, "3-0-0") for n in range(1, 9)]
    text = messages.standings_text(event="E" * 100, rows=rows, link="https://x/e/standings/")
    assert len(text) <= messages.DISCORD_LIMIT
    assert text.endswith("Full standings: https://x/e/standings/")
    assert text.count("N" * 300) == 5  # as many whole lines as fit


def test_the_standings_message_shows_ties_and_the_champion():
    rows = [
        messages.StandingRow(1, False, "Ann", 9, "3-0-0"),
        messages.StandingRow(2, True, "Bob", 6, "2-1-0"),
        messages.StandingRow(2, True, "Cy", 6, "2-1-0"),
    ]
    text = messages.standings_text(event="Cup", rows=rows, link="L", champion="Bob")
    assert text == (
        "**Cup** is over. Champion: **Bob**.\nFinal standings:\n"
        "1. Ann · 9 pts (3-0-0)\n2= Bob · 6 pts (2-1-0)\n2= Cy · 6 pts (2-1-0)\n"
        "Full standings: L"
    )

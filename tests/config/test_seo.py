"""What a search engine reads (issue 33, Lighthouse's SEO checks): each public page's own
description, and a robots.txt that keeps crawlers off the admin and the API only."""

import html
import re

import pytest

from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def description(response) -> str:
    match = re.search(r'<meta name="description" content="([^"]*)">', response.content.decode())
    assert match, "no meta description"
    return html.unescape(match.group(1))


def test_each_public_page_describes_itself(client, league):
    event = TournamentFactory(league=league, name="Modern Open", slug="modern-open")
    pages = {
        "/": "Game stores on Guildhall: events being played now",
        "/leagues/friday/": "Friday Commander at Dragon's Den: standings, ratings and games",
        "/leagues/friday/events/": "Friday Commander at Dragon's Den: its Swiss events",
        "/stores/dragons-den/": "Dragon's Den on Guildhall: upcoming events",
        f"/events/{event.slug}/": "Modern Open, 20 November 2026 at Dragon's Den: pairings",
        f"/events/{event.slug}/standings/": "Standings of Modern Open, 20 November 2026",
        "/accounts/signup/": "Sign up to Guildhall",
    }
    for path, start in pages.items():
        response = client.get(path)
        assert response.status_code == 200, path
        assert description(response).startswith(start), (path, description(response))


def test_robots_txt_asks_crawlers_to_leave_the_admin_and_the_api_only(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    assert sorted(line for line in lines if line.startswith("Disallow")) == [
        "Disallow: /admin/",
        "Disallow: /api/",
    ]

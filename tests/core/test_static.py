"""The site's look is the core app's: the stylesheet and icon every page links are found there,
under the names the templates use (guildhall/...), and a page links them."""

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

CORE = Path(__file__).resolve().parents[2] / "core" / "static" / "guildhall"


@pytest.mark.parametrize("name", ["tokens.css", "guildhall.css", "favicon.svg"])
def test_site_wide_static_files_live_in_core(name):
    assert Path(finders.find(f"guildhall/{name}")) == CORE / name


@pytest.mark.django_db
def test_a_page_links_the_site_stylesheet(client):
    html = client.get("/").content.decode()
    tokens = '<link rel="stylesheet" href="/static/guildhall/tokens.css">'
    assert f'{tokens}\n  <link rel="stylesheet" href="/static/guildhall/guildhall.css">' in html

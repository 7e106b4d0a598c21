"""The finder of help paragraphs (tests/prose.py) that the permission matrix runs on every page."""

import pytest

from tests.prose import long_paragraphs

LONG = "This page explains itself at length. " * 8  # 296 characters


def page(body: str) -> str:
    return f"<html><body><header><p>{LONG}</p></header><main>{body}</main></body></html>"


def test_a_long_paragraph_in_main_is_found_by_its_text():
    found = long_paragraphs(page(f"<h1>Title</h1><p class='help'>{LONG}</p>"))
    assert found == [LONG.strip()]


def test_text_outside_main_and_short_paragraphs_are_not_counted():
    assert long_paragraphs(page("<p>A line.</p><p>" + "x" * 160 + "</p>")) == []


def test_the_text_of_nested_tags_counts_and_whitespace_collapses():
    body = "<p>" + "<a href='#'>word</a>\n   " * 50 + "<br><img alt=''></p>"
    assert long_paragraphs(page(body)) == [" ".join(["word"] * 50)]


@pytest.mark.parametrize(
    "body",
    [
        f"<details class='help-toggle'><summary>?</summary><div><p>{LONG}</p></div></details>",
        f"<div class='field'><label>Name</label><input><p class='help'>{LONG}</p></div>",
        f"<p class='message warning'>{LONG}</p>",
        f"<div role='alert'><p>{LONG}</p></div>",
        f"<div role='status'><p>{LONG}</p></div>",
        f"<div class='page-subject'><p>{LONG}</p></div>",
        f"<details class='help'><summary>How?</summary><p>{LONG}</p></details>",
        f"<p><label>Pick</label><select><option>{LONG}</option></select></p>",
        f"<p><textarea>{LONG}</textarea></p>",
    ],
    ids=[
        "help-toggle",
        "field-help",
        "message",
        "alert",
        "status",
        "page-subject",
        "closed-details",
        "select",
        "textarea",
    ],
)
def test_the_exempt_places_are_not_counted(body):
    assert long_paragraphs(page(body)) == []


def test_a_help_paragraph_outside_a_field_is_counted():
    body = f"<form><div class='field'><input></div><p class='help'>{LONG}</p></form>"
    assert long_paragraphs(page(body)) == [LONG.strip()]


def test_a_details_drawn_open_is_in_view_and_counted():
    body = f"<details open><summary>More</summary><p>{LONG}</p></details>"
    assert long_paragraphs(page(body)) == [LONG.strip()]


def test_a_paragraph_after_a_closed_help_toggle_is_counted():
    body = f"<details class='help-toggle'><summary>?</summary><p>ok</p></details><p>{LONG}</p>"
    assert long_paragraphs(page(body)) == [LONG.strip()]

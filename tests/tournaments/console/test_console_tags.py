"""The console's shared card pieces (tournaments/templatetags/console.py)."""

import re

from tournaments.formats import FORMATS
from tournaments.formats.onevone import DRAW_CODES, MORE_RESULTS, RESULTS
from tournaments.templatetags.console import place_options, result_buttons


def codes(html: str) -> list[str]:
    return re.findall(r'name="result" value="([^"]+)"', html)


def test_result_buttons_every_result_in_swiss_no_draw_in_a_top_cut():
    play = FORMATS["1v1"]
    every = [code for code, _, _ in RESULTS + MORE_RESULTS]
    assert codes(result_buttons(play, "swiss")) == every
    cut = codes(result_buttons(play, "top_cut"))
    assert cut == [code for code in every if code not in DRAW_CODES]
    assert "id" in every and "id" not in cut and "1-1" not in cut  # a cut match needs a winner
    assert 'title="Intentional draw, reported 0-0-3 (MTR 2.4)"' in result_buttons(play, "swiss")


def test_place_options_mark_the_chosen_place():
    assert str(place_options(3, None)) == (
        '<option value="">place</option><option value="1">1</option>'
        '<option value="2">2</option><option value="3">3</option>'
    )
    assert '<option value="2" selected>2</option>' in place_options(4, 2)
    assert str(place_options(4, 2)).count("selected") == 1


def entries_html(status: str, *entries) -> str:
    from types import SimpleNamespace

    from django.template import Context, Template

    page = Template("{% load console %}{% entry_list entries %}")
    return page.render(
        Context(
            {
                "event": SimpleNamespace(status=status),
                "entries": entries,
                "entries_url": "/events/fnm/entries/",
                "csrf_token": "tok",
            }
        )
    )


def line(pk, name, *, joined=1, dropped=None, seated=True, byes=()):
    return {
        "pk": pk,
        "name": name,
        "joined_round": joined,
        "dropped_after": dropped,
        "seated": seated,
        "bye_rounds": list(byes),
    }


def test_entry_list_tags_and_the_forms_each_player_gets():
    html = entries_html(
        "swiss",
        line(1, "Ann <b>", joined=2, byes=[4]),
        line(2, "Bob", dropped=2),
        line(3, "Cy", seated=False),
    )
    ann, bob, cy = html.split("<li>")[1:]
    assert '<span class="entry-name">Ann &lt;b&gt; <span class="tag">from round 2</span>' in ann
    assert '<span class="tag half-bye">½ bye in round 4</span>' in ann
    assert (
        'action="/events/fnm/entries/1/bye/"><input type="hidden" name="csrfmiddlewaretoken"' in ann
    )
    assert '<button type="submit" class="link">plays round 4</button>' in ann
    assert "<summary>½ bye · drop</summary>" in ann and "undo drop" not in ann
    # Dropped after sitting: only the undo (nothing to open); not seated: remove too.
    assert '<span class="tag">dropped</span>' in bob and "/entries/2/undrop/" in bob
    assert "<details" not in bob
    assert "<summary>½ bye · drop · remove</summary>" in cy
    assert 'hx-get="/events/fnm/entries/3/actions/"' in cy


def test_entry_list_in_a_cut_and_once_finished():
    cut = entries_html("top_cut", line(1, "Ann", byes=[4]), line(2, "Bob", dropped=2))
    assert "<summary>drop</summary>" in cut and "plays round" not in cut
    assert "undo drop" not in cut  # a drop is undone in registration or the swiss rounds
    done = entries_html("finished", line(1, "Ann"))
    assert "entry-actions" not in done and '<span class="entry-name">Ann</span></li>' in done


def test_standing_rows_link_each_player_and_mark_ties_drops_and_decks():
    from types import SimpleNamespace

    from django.template import Context, Template

    from tournaments.selectors import StandingLine

    lines = [
        StandingLine(1, False, 10, "Ann <b>", 9.0, "3-0-0", ["66.7%", "\u2013"], False),
        StandingLine(2, True, 20, "Bob", 4.5, "1-1-1", ["50.0%", "1"], True),
    ]
    html = Template("{% load standings %}{% standing_rows lines %}").render(
        Context({"event": SimpleNamespace(slug="fnm"), "lines": lines, "decks": {"Bob": "Elves"}})
    )
    assert (
        '<tr><td class="rank">1</td><td class="name"><a href="/events/fnm/players/10/">'
        'Ann &lt;b&gt;</a></td><td class="num">9</td><td class="num">3-0-0</td>'
        '<td class="num">66.7%</td><td class="num">\u2013</td></tr>'
    ) in html
    assert (
        '<tr class="dropped"><td class="rank">2=</td><td class="name"><a '
        'href="/events/fnm/players/20/">Bob</a> <span class="deck">Elves</span> '
        '<span class="tag">dropped</span></td><td class="num">4.5</td>'
    ) in html

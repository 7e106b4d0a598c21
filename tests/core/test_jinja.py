"""The Jinja2 engine of the hot fragments (core/jinja.py) escapes as Django's autoescape does,
and core/fragments.py's tags put its text in a Django page as it is."""

import datetime

from django.template import Context, Engine, engines
from django.utils.safestring import mark_safe
from django.utils.translation import override

from core.fragments import fragment_tag


def render(source: str, **context) -> str:
    return engines["jinja2"].env.from_string(source).render(**context)


def test_values_are_escaped_with_djangos_spelling():
    assert render("{{ name }}", name='Ann\'s <b>"&"</b>') == (
        "Ann&#x27;s &lt;b&gt;&quot;&amp;&quot;&lt;/b&gt;"
    )
    assert render("{{ n }}|{{ x }}|{{ none }}", n=12, x=4.5, none=None) == "12|4.5|None"


def test_a_value_marked_safe_by_django_is_kept_and_nothing_is_escaped_twice():
    assert render("{{ html }}", html=mark_safe("<b>ok</b>")) == "<b>ok</b>"
    # What a block or a macro captures is already escaped: printing it escapes nothing again.
    block = "{% set cell %}<td>{{ name }}</td>{% endset %}{{ cell }}{{ cell }}"
    assert render(block, name="<i>") == "<td>&lt;i&gt;</td>" * 2
    macro = "{% macro cell(v) %}<td>{{ v }}</td>{% endmacro %}{{ cell(name) }}"
    assert render(macro, name="a&b") == "<td>a&amp;b</td>"


def test_join_text_escapes_the_joined_names_once():
    assert render('{{ names|join_text(", ") }}', names=["A&B", "<C>"]) == "A&amp;B, &lt;C&gt;"


def test_globals_and_filters():
    assert render('{{ url("game_edit", 7) }}') == "/games/7/edit/"
    with override("en"):
        assert render('{{ d|date("D j M Y") }}', d=datetime.date(2026, 3, 8)) == "Sun 8 Mar 2026"
        assert render('{{ 4.5|floatformat("-1") }} {{ 9.0|floatformat("-1") }}') == "4.5 9"


def test_a_fragment_tags_text_goes_into_the_page_unescaped_once():
    from django import template

    register = template.Library()

    @fragment_tag(register, takes_context=True)
    def cell(context, value, css="num") -> str:
        source = '<td class="{{ css }}">{{ value }}{{ suffix }}</td>'
        return (
            engines["jinja2"]
            .env.from_string(source)
            .render(value=value, css=css, suffix=context.get("suffix", ""))
        )

    engine = Engine()
    engine.template_builtins.append(register)
    page = engine.from_string("{% cell name %}{% cell name css='name' %}")
    html = page.render(Context({"name": "<Ann>", "suffix": "!"}))
    assert html == '<td class="num">&lt;Ann&gt;!</td><td class="name">&lt;Ann&gt;!</td>'

"""`@fragment_tag(register)`: a Django template tag that draws a template file of the Jinja2
engine (core.jinja), for the rows a page draws by the hundred.

The tag is written like a `simple_tag` (positional and keyword arguments, `takes_context`)
and returns the text of an autoescaped Jinja2 template. Its node puts that text in the page
as `{% include %}` puts a template's: nothing in Python marks markup safe by hand, and the
pages keep their `{% load ... %}` and tags whatever draws them.
"""

from functools import wraps
from inspect import getfullargspec, unwrap

from django.template import engines
from django.template.library import Library, TagHelperNode, parse_bits


def jinja_template(name: str):
    """The Jinja2 engine's template `name` (its environment caches it)."""
    return engines["jinja2"].env.get_template(name)


class FragmentNode(TagHelperNode):
    def render(self, context) -> str:
        args, kwargs = self.get_resolved_arguments(context)
        return self.func(*args, **kwargs)


def fragment_tag(register: Library, *, takes_context: bool = False):
    """Register the decorated function, which returns a rendered Jinja2 template, as a tag."""

    def decorator(func):
        params, varargs, varkw, defaults, kwonly, kwonly_defaults, _ = getfullargspec(unwrap(func))
        name = func.__name__

        @wraps(func)
        def compile_func(parser, token):
            args, kwargs = parse_bits(
                parser,
                token.split_contents()[1:],
                params,
                varargs,
                varkw,
                defaults,
                kwonly,
                kwonly_defaults,
                takes_context,
                name,
            )
            return FragmentNode(func, takes_context, args, kwargs)

        register.tag(name, compile_func)
        return func

    return decorator

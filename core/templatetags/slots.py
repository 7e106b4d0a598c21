"""`{% slot "name" key=value ... %}`: draws every filling of a declared page slot
(core.hooks), in the order the upper apps filled it, each filling's template with the dict its
context function returns for `(context, **arguments)`. Drawn the way an inclusion tag is: a
new context from the page's (its autoescape, on), with the page's CSRF token; nothing a filler
returns is marked safe by this tag."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from ..hooks import slot as find_slot

register = template.Library()


class SlotNode(template.Node):
    def __init__(self, name, kwargs):
        self.name = name
        self.kwargs = kwargs

    def render(self, context):
        name = self.name.resolve(context)
        kwargs = {key: value.resolve(context) for key, value in self.kwargs.items()}
        parts = []
        for filling in find_slot(name).fillings:
            values = filling.context(context, **kwargs)
            if values is None:
                continue
            values = dict(values)
            csrf_token = context.get("csrf_token")
            if csrf_token is not None:
                values.setdefault("csrf_token", csrf_token)
            drawn = context.template.engine.get_template(filling.template_name)
            parts.append(conditional_escape(drawn.render(context.new(values))))
        # Each part is a template's output (SafeString, escaped by its own autoescape).
        return mark_safe("".join(parts))


@register.tag
def slot(parser, token):
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError('{% slot "name" key=value ... %} needs a name')
    name = parser.compile_filter(bits[1])
    kwargs = template.base.token_kwargs(bits[2:], parser)
    if len(kwargs) != len(bits) - 2:
        raise template.TemplateSyntaxError("{% slot %} takes key=value arguments only")
    return SlotNode(name, kwargs)

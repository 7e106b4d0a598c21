from django import template

register = template.Library()


@register.filter
def percent(value, decimals: int = 1) -> str:
    """0.4137 → "41.4%"; None → an en dash."""
    if value is None:
        return "\u2013"
    return f"{100 * value:.{int(decimals)}f}%"

"""A mail's HTML part in the store's own look (issue 33): its name and logo at the top on its
accent colour, the message's paragraphs, the link as a button, why the mail came at the foot.

Mail programs drop stylesheets and CSS variables, so the colours are written into the markup;
they are the design system's light-scheme tokens (core/static/guildhall/tokens.css, `:root`),
copied here by name and compared with the stylesheet by a test, so a token changed there cannot
leave the mails behind. Every pair of text and background in the mail reaches WCAG AA (4.5:1):
the tokens were chosen so, and the store's colour comes as its light-scheme palette
(`leagues.domain.colour.store_palette`, as on its pages): the header in the store's colour with
the text chosen for it, the button in the accent's fill with its own. A colour that is not one
(written by hand) gives way to Guildhall's own brand here.
The text part stays the whole message: the HTML part only presents it.
"""

from dataclasses import dataclass

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

from leagues.domain.colour import AccentProblem, accent_clean, store_palette
from leagues.models import Organization

from .domain.messages import Email

# The light scheme's tokens a mail uses, as in tokens.css's `:root`.
TOKENS = {
    "ink": "#1d2330",
    "muted": "#535c6d",
    "line": "#d3d8e1",
    "paper": "#ffffff",
    "wash": "#f4f5f8",
    "brand": "#7a2e1f",
    "brand-ink": "#ffffff",
}
LOGO_HEIGHT = 40  # px, the logo's height in the mail's header


@dataclass(frozen=True)
class StoreLook:
    name: str
    accent: str  # the header's background: the store's colour
    logo_url: str  # absolute, '' without a logo
    accent_ink: str = TOKENS["brand-ink"]  # the header's text, readable on `accent`
    button: str = TOKENS["brand"]  # the link's button: the accent filled on white
    button_ink: str = TOKENS["brand-ink"]


def store_look(organization_id: int) -> StoreLook:
    """The store's name, accent and logo address (the logo's bytes are not read: mail programs
    fetch it from the store's public logo address, cached for long by its version)."""
    row = (
        Organization.objects.filter(pk=organization_id)
        .values("slug", "name", "accent", "logo_type", "logo_version")
        .get()
    )
    try:
        accent = accent_clean(row["accent"])
    except AccentProblem:
        accent = ""
    if accent:
        tones = store_palette(accent)["light"]
        colours = {
            "accent": tones.header,
            "accent_ink": tones.header_ink,
            "button": tones.fill,
            "button_ink": tones.fill_ink,
        }
    else:
        colours = {"accent": TOKENS["brand"]}
    logo_url = ""
    if row["logo_type"]:
        path = reverse("store_logo", args=[row["slug"]])
        logo_url = f"{settings.GUILDHALL_BASE_URL.rstrip('/')}{path}?v={row['logo_version']}"
    return StoreLook(name=row["name"], logo_url=logo_url, **colours)


def email_html(mail: Email, *, look: StoreLook, link: str, action: str) -> str:
    """The HTML part of `mail`: its body's paragraphs (blank-line separated), the one holding
    `link` with the link as a button saying `action`, the closing "You get this mail
    because..." (`mail.footer`) in small type at the foot. Written in the active language
    (the recipient's: notifications.sending), which the page's `lang` names."""
    paragraphs = [p.strip() for p in mail.body.split("\n\n") if p.strip()]
    footer = ""
    if mail.footer and paragraphs and paragraphs[-1] == mail.footer.strip():
        footer = paragraphs.pop()
    blocks = []
    for text in paragraphs:
        if link and link in text:
            before, _, after = text.partition(link)
            blocks.append({"text": before.strip().rstrip(":"), "link": link, "after": after})
        else:
            blocks.append({"text": text})
    return render_to_string(
        "notifications/email/message.html",
        {
            "subject": mail.subject,
            "action": action,
            "blocks": blocks,
            "footer": footer,
            "look": look,
            "logo_height": LOGO_HEIGHT,
            "c": TOKENS,
        },
    )

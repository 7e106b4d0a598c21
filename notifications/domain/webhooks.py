"""Which webhook addresses a store may set: https only, a real host name, nothing private.

The server posts to the address from inside the store's deployment, so an address naming the
machine itself or any network that is not the public internet (127.0.0.1, 10.x, 192.168.x,
carrier-grade NAT 100.64.0.0/10 where cloud metadata services live, link-local 169.254.x,
"localhost") is refused: a store's webhook is for a chat service on the internet (Discord,
Slack, Teams...). `address_is_public` is the one rule for an IP, used for an address typed in
the URL and for every address its host name resolves to when a message is sent. For a local
test receiver, `allow_local_http` (DEBUG) accepts http:// to the loopback addresses.
"""

import ipaddress
from urllib.parse import urlsplit

from core.translate import gettext as _

MAX_LENGTH = 500
LOOPBACK_NAMES = {"localhost", "localhost.localdomain"}
# Shared address space (RFC 6598, carrier-grade NAT; Alibaba's metadata service is
# 100.100.100.200): outside `is_global`, spelt out so no Python version lets it through.
SHARED_ADDRESS_SPACE = ipaddress.ip_network("100.64.0.0/10")


def address_is_public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether a message may be posted to `ip`: a unicast address of the public internet.

    `is_global` (IANA's special-purpose registries) plus explicit refusals for what it lets
    through, and the IPv4 address inside an IPv6 one (mapped, 6to4, Teredo) checked in its
    turn. NAT64's 64:ff9b::/96 lies in the reserved ::/8, refused with it."""
    if not ip.is_global or ip.is_multicast or ip.is_unspecified or ip.is_reserved:
        return False
    if ip.is_private or ip.is_loopback or ip.is_link_local:
        return False
    if ip.version == 4:
        return ip not in SHARED_ADDRESS_SPACE
    if ip.scope_id:
        return False
    inner = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
    return all(address_is_public(v4) for v4 in inner if v4 is not None)


def _ip(host: str):
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def webhook_url_problem(url: str, *, allow_local_http: bool = False) -> str | None:
    """Why `url` cannot be a store's webhook, in a sentence; None when it can."""
    if len(url) > MAX_LENGTH:
        return _("The address is longer than %(max)s characters.") % {"max": MAX_LENGTH}
    if any(ch.isspace() for ch in url):
        return _("The address has a space in it: paste it exactly as the chat service gives it.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return _("That is not a web address (https://...).")
    host = (parts.hostname or "").lower()
    if parts.scheme not in {"https", "http"} or not host:
        return _("That is not a web address: it must start with https://")
    ip = _ip(host)
    local = host in LOOPBACK_NAMES or (ip is not None and ip.is_loopback)
    if parts.scheme == "http" and not (allow_local_http and local):
        return _("The address must start with https:// (the message is sent encrypted).")
    if parts.username or parts.password:
        return _("The address must not contain a user name or password.")
    if local and not allow_local_http:
        return _("The address names this server itself; use your chat service's webhook address.")
    if ip is not None and not local and not address_is_public(ip):
        return _("The address is on a private network; use your chat service's webhook address.")
    if ip is None and "." not in host and not local:
        return _("The address needs a full host name, like discord.com.")
    if port is not None and not 0 < port < 65536:
        return _("The port in the address is out of range.")
    return None


def webhook_url_shown(url: str) -> str:
    """The address as a page shows it: a webhook's secret (the token after the last slash)
    is hidden, since anyone who has the whole address can post to the channel."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    head, _, secret = path.rpartition("/")
    if head and len(secret) > 6:
        path = f"{head}/{secret[:4]}…"
    return f"{parts.scheme}://{parts.netloc}{path}"

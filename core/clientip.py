"""The client's address, the one every limit of the site counts by.

Behind the reverse proxy REMOTE_ADDR is the proxy, the same for everybody: the client is the
address the proxies appended to X-Forwarded-For, settings.PROXY_COUNT entries from the right
(the entries to their left are whatever the client sent, so they are never trusted). The login
lockout (django-axes, AXES_CLIENT_IP_CALLABLE) and allauth's sign-up and password-reset limits
(accounts.adapter.AccountAdapter.get_client_ip) both ask here, so they agree on who is who.
"""

import ipaddress

from django.conf import settings


def client_ip(request) -> str | None:
    """The client's address as the nearest PROXY_COUNT proxies saw it."""
    proxies = settings.PROXY_COUNT
    if proxies > 0:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if len(forwarded) >= proxies:
            try:
                return str(ipaddress.ip_address(forwarded[-proxies]))
            except ValueError:
                pass  # not an address: count it against the proxy's own, as without a header
    return request.META.get("REMOTE_ADDR")

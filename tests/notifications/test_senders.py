"""One webhook POST against hostile receivers: real HTTP servers on 127.0.0.1 that drip their
answer a byte at a time or answer with a huge body, and host names that resolve to private
addresses or answer differently the second time they are asked (DNS rebinding).

Loopback receivers are allowed here only because `GUILDHALL_WEBHOOK_LOCAL` is on (the
package's conftest turns it on, as a developer's local receiver would); the rebinding tests turn
it off, as in production.
"""

import socket
import ssl
import threading
import time

import pytest

from notifications import senders
from notifications import services as notify
from notifications.models import Delivery
from notifications.tasks import deliver_due

from .conftest import webhook_to
from .receiver import Answer, FakeReceiver

pytestmark = pytest.mark.django_db

PUBLIC = "93.184.215.14"  # a global address (example.com's); nothing listens for us there


class BytesRead:
    """Counts the bytes this thread reads from any plain socket (what the sender pulls in)."""

    def __init__(self, monkeypatch):
        self.count = 0
        me = threading.get_ident()
        recv_into, recv = socket.socket.recv_into, socket.socket.recv

        def counted_recv_into(sock, buffer, *args):
            n = recv_into(sock, buffer, *args)
            if threading.get_ident() == me:
                self.count += n
            return n

        def counted_recv(sock, *args):
            data = recv(sock, *args)
            if threading.get_ident() == me:
                self.count += len(data)
            return data

        monkeypatch.setattr(socket.socket, "recv_into", counted_recv_into)
        monkeypatch.setattr(socket.socket, "recv", counted_recv)


def send_test_message(org, url):
    webhook_to(org, url)
    notify.webhook_test_send(organization=org)
    start = time.monotonic()
    deliver_due.call()  # what the worker does
    return time.monotonic() - start


def test_a_receiver_that_drips_its_answer_is_cut_off_at_the_deadline(event, monkeypatch):
    """The red team's receiver sent a byte every 4 s, under any per-read time-out, and held
    the worker 124 s. Here: a byte every 0.2 s for 8 s against a 1.5 s deadline."""
    monkeypatch.setattr(senders, "DEADLINE", 1.5, raising=False)
    with FakeReceiver(Answer(204, drip_every=0.2, drip_for=8)) as receiver:
        took = send_test_message(event.league.organization, receiver.url)
        assert len(receiver.requests) == 1
    assert took < 1.5 + 1.0
    delivery = Delivery.objects.get()
    assert delivery.status == "queued"  # tried again later, like a time-out
    assert delivery.last_error == "No complete answer within 1.5 seconds."


@pytest.mark.parametrize("status", [200, 500])
def test_a_huge_answer_is_not_read(event, monkeypatch, status):
    """A 50 MB answer (the red team's was 400 MB and took the worker from 73 to 575 MB): at
    most REPLY_LIMIT (8 KiB) bytes are read, plus the socket buffer's 8 KiB."""
    read = BytesRead(monkeypatch)
    with FakeReceiver(Answer(status, filler=50_000_000)) as receiver:
        took = send_test_message(event.league.organization, receiver.url)
    assert read.count <= 16 * 1024
    assert took < 10
    delivery = Delivery.objects.get()
    if status == 200:
        assert delivery.status == "sent"
    else:
        assert delivery.status == "queued" and delivery.last_error.startswith("HTTP 500: xxx")
        assert len(delivery.last_error) < 300


class Resolver:
    """socket.getaddrinfo for one name: `answers[n]` to the n-th question (the last repeats)."""

    def __init__(self, monkeypatch, *answers: list[str]):
        self.answers, self.calls = list(answers), 0
        real = socket.getaddrinfo

        def getaddrinfo(host, port, *args, **kwargs):
            if host != "hooks.example.com":
                return real(host, port, *args, **kwargs)
            ips = self.answers[min(self.calls, len(self.answers) - 1)]
            self.calls += 1
            return [
                (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (ip, port or 0))
                for ip in ips
            ]

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections it gets."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.sock.close()


def test_dns_rebinding_cannot_reach_this_machine(event, settings, monkeypatch):
    """The name answers a public address to the check and 127.0.0.1 afterwards: the POST goes
    to the address that was checked, and the name is asked once."""
    settings.GUILDHALL_WEBHOOK_LOCAL = False
    monkeypatch.setattr(senders, "CONNECT_TIMEOUT", 0.5)
    with Listener() as local:
        resolver = Resolver(monkeypatch, [PUBLIC], ["127.0.0.1"])
        send_test_message(event.league.organization, f"https://hooks.example.com:{local.port}/x")
        time.sleep(0.2)
        assert local.accepted == 0
    assert resolver.calls == 1
    delivery = Delivery.objects.get()
    assert delivery.status == "queued"
    assert delivery.last_error == "Could not connect to the webhook's server."


@pytest.mark.parametrize(
    "addresses",
    [["10.1.2.3"], ["100.64.0.1"], ["100.100.100.200"], [PUBLIC, "127.0.0.1"], ["169.254.1.1"]],
)
def test_a_name_resolving_to_any_private_address_is_not_posted(
    event, settings, monkeypatch, addresses
):
    settings.GUILDHALL_WEBHOOK_LOCAL = False
    Resolver(monkeypatch, addresses)
    with Listener() as local:
        send_test_message(event.league.organization, f"https://hooks.example.com:{local.port}/x")
        assert local.accepted == 0
    delivery = Delivery.objects.get()
    assert delivery.status == "failed"
    assert delivery.last_error == "The webhook's host name points to a private network address."


def test_while_developing_only_this_machine_is_allowed_besides_public_addresses(monkeypatch):
    Resolver(monkeypatch, ["127.0.0.1"], ["100.100.100.200"])
    found = senders.addresses_checked("hooks.example.com", 80, allow_loopback=True, timeout=1)
    assert found == [(socket.AF_INET, ("127.0.0.1", 80))]
    with pytest.raises(senders.WebhookAddressError, match="private network"):
        senders.addresses_checked("hooks.example.com", 80, allow_loopback=True, timeout=1)


def test_every_attempt_at_a_message_carries_the_same_idempotency_key(event):
    org = event.league.organization
    with FakeReceiver(Answer(500), Answer(204)) as receiver:
        send_test_message(org, receiver.url)
        Delivery.objects.update(next_attempt_at=Delivery.objects.get().created_at)
        deliver_due.call()
        first, second = receiver.requests
    delivery = Delivery.objects.get()
    assert delivery.status == "sent" and delivery.attempts == 2
    key = first["headers"]["Idempotency-Key"]
    assert key == second["headers"]["Idempotency-Key"] == delivery.idempotency_key
    assert first["json"]["idempotency_key"] == second["json"]["idempotency_key"] == key
    other = Delivery(pk=delivery.pk + 1, key=delivery.key)
    assert other.idempotency_key != key


def certificate_for(name: str, tmp_path):
    """A CA (its file) and a server certificate for `name` signed by it (key and chain files)."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)

    def build(subject, issuer, key, signer, *, ca: bool):
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
            .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        )
        if ca:
            builder = builder.add_extension(
                x509.KeyUsage(
                    digital_signature=True, key_cert_sign=True, crl_sign=True,
                    content_commitment=False, key_encipherment=False, data_encipherment=False,
                    key_agreement=False, encipher_only=False, decipher_only=False,
                ),
                critical=True,
            )  # fmt: skip
        else:
            builder = builder.add_extension(
                x509.SubjectAlternativeName([x509.DNSName(subject)]), critical=False
            )
        return builder.sign(signer, hashes.SHA256())

    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = build("Test CA", "Test CA", ca_key, ca_key, ca=True)
    leaf = build(name, "Test CA", key, ca_key, ca=False)
    pem = serialization.Encoding.PEM
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(pem))
    (tmp_path / "server.pem").write_bytes(leaf.public_bytes(pem))
    (tmp_path / "server.key").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return tmp_path / "ca.pem", tmp_path / "server.pem", tmp_path / "server.key"


@pytest.mark.parametrize("certificate_name", ["hooks.example.com", "other.example.com"])
def test_over_tls_the_pinned_address_still_names_the_host(
    event, monkeypatch, tmp_path, certificate_name
):
    """The POST goes to the checked address, yet TLS sends the host name (SNI), checks the
    certificate against it, and the Host header names it: a real TLS server on 127.0.0.1,
    its certificate from a test CA the sender is told to trust."""
    ca, chain, key = certificate_for(certificate_name, tmp_path)
    monkeypatch.setattr(senders.certifi, "where", lambda: str(ca))
    Resolver(monkeypatch, ["127.0.0.1"])  # allowed: GUILDHALL_WEBHOOK_LOCAL (conftest)
    names: list[str] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(chain, key)
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    with FakeReceiver() as receiver:
        receiver.server.socket = context.wrap_socket(receiver.server.socket, server_side=True)
        port = receiver.server.server_address[1]
        send_test_message(event.league.organization, f"https://hooks.example.com:{port}/x")
        arrived = list(receiver.requests)
    delivery = Delivery.objects.get()
    if certificate_name == "hooks.example.com":
        assert delivery.status == "sent", delivery.last_error
        assert names == ["hooks.example.com"]
        assert arrived[0]["headers"]["Host"] == f"hooks.example.com:{port}"
    else:
        assert arrived == []
        assert delivery.status == "queued"
        assert delivery.last_error == "The webhook's server certificate is not valid."

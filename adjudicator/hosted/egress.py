"""Where webhooks may go: the public internet, and only what the operator allows besides.

A webhook URL is checked when it is set and again at delivery, by one function (`url_problem`: scheme, host,
numeric port, length, no credentials; a host written as an address or a loopback name, in any spelling, must be
allowed). Hosts are compared as the resolver reads them (`canonical_host`: the IDNA form, lower case, without the
root's trailing dot), so `localhost.`, `127.0.0.1.` and full-width `localhost` are the names they spell. At
delivery the host is resolved, every address it resolves to is checked (loopback, private, link-local,
unique-local, shared, multicast, reserved and unspecified addresses are refused, and an IPv6 address carrying an
IPv4 one is judged by it), and the connection is made to a checked address: nothing is looked up again between
the check and the connection. Redirects are not followed.

What the game master reads of a failure says nothing of the network behind the host: one message for a host
that does not resolve or resolves to a refused address, one for every way a connection fails (refused, timed
out, reset, TLS, an answer that is not HTTP), so a closed port reads as an open one. The details go to the
operator's log. One deadline bounds an attempt's connecting (to every address in turn), sending and reading.
"""

from __future__ import annotations

import http.client
import ipaddress
import logging
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

log = logging.getLogger("adjudicator.webhooks")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

NO_PUBLIC_ADDRESS = "refused: the host has no public internet address (webhooks go to the public internet only)"
NO_ANSWER = "no valid HTTP answer: the connection failed, timed out, or what came back was not HTTP"
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # IPv4 addresses reached through a NAT64 gateway
# Names every resolver or hosts file maps to loopback (RFC 6761, and the Debian and Red Hat hosts files)
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "localhost4", "localhost4.localdomain4",
                             "localhost6", "localhost6.localdomain6", "ip6-localhost", "ip6-loopback"})


def public(address: Address) -> bool:
    """Whether an address is on the public internet; an IPv6 address carrying an IPv4 one (mapped, 6to4, Teredo,
    NAT64) is judged by the IPv4 address too, since that is where a packet would go."""
    if isinstance(address, ipaddress.IPv6Address):
        carried = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
        if address in _NAT64:
            carried.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if any(inner is not None and not public(inner) for inner in carried):
            return False
    return address.is_global and not (address.is_private or address.is_loopback or address.is_link_local
                                      or address.is_multicast or address.is_reserved or address.is_unspecified)


def _address(text: str) -> Address:
    return ipaddress.ip_address(text.split("%", 1)[0])  # an IPv6 scope (`fe80::1%eth0`) is no part of the address


@dataclass(frozen=True)
class Egress:
    """The operator's allow-list (`ADJUDICATOR_WEBHOOK_ALLOW`): host names and networks webhooks may reach
    besides the public internet (a LAN deployment, the tests' loopback receivers)."""

    hosts: frozenset[str] = frozenset()
    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, setting: str | None) -> Egress:
        """From the setting: host names, addresses and networks (`10.0.0.0/8`), separated by commas or blanks."""
        hosts, networks = set(), []
        for entry in (setting or "").replace(",", " ").split():
            try:
                networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
            except ValueError:
                hosts.add(canonical_host(entry) or entry.lower())
        return cls(frozenset(hosts), tuple(networks))

    def allows(self, host: str, address: Address) -> bool:
        """Whether a webhook to `host` may connect to `address`."""
        if (canonical_host(host) or host) in self.hosts or public(address):
            return True
        plain = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped else address
        return any(plain in network for network in self.networks)


def canonical_host(host: str) -> str | None:
    """A URL's host as the resolver reads it: an IPv6 address as it is; a name or IPv4 address in its IDNA form
    (full-width letters and ideographic dots folded), lower case, without the root's trailing dot (None: it is
    neither, e.g. an empty label)."""
    if ":" in host:
        return host.lower()
    try:
        name = host.encode("idna").decode("ascii").lower()
    except UnicodeError:  # an empty or over-long label, a character no name may hold
        return None
    name = name[:-1] if name.endswith(".") else name
    if not name or "" in name.split(".") or not all(ch.isalnum() or ch in "-_." for ch in name):
        return None
    return name


def receiver(url: str) -> str:
    """Who receives a URL's deliveries, for sharing the senders out: its canonical host (the URL itself when it
    has none)."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        host = None
    return (canonical_host(host) if host else None) or url


def url_problem(url: str, max_length: int, egress: Egress) -> str | None:
    """Why a webhook URL is refused (None: it is taken), when it is set and again at delivery. Host names are
    resolved only at delivery; a host written as an address (any IPv4 spelling: `127.1`, `2130706433`, `0x7f.1`,
    `127.0.0.1.`) or a loopback name (`localhost.`, `app.localhost`) is checked without a lookup."""
    if len(url) > max_length:
        return f"the webhook URL is over {max_length} characters"
    if any(ch.isspace() or ord(ch) < 0x20 or ch == "\x7f" for ch in url):
        return "the webhook URL holds a blank or a control character"
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in url):
        return "the webhook URL holds a lone surrogate (a character that is not text)"
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:  # an unbalanced or invalid [IPv6] host
        return "the webhook URL's host is not a name or an address"
    if parts.scheme.lower() not in ("http", "https"):
        return f"the webhook must be an http or https URL, not {parts.scheme or 'one without a scheme'!r}"
    if "@" in parts.netloc:
        return "the webhook URL may not hold a user name or password: they would be kept and shown as the URL is"
    if not host:
        return "the webhook URL names no host"
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is not None and not 1 <= port <= 65535:
        return "the webhook URL's port must be a number from 1 to 65535"
    name = canonical_host(host)
    if name is None:
        return f"{host[:60]!r} is not a host name"
    if not _literal_allowed(name, egress):
        return NO_PUBLIC_ADDRESS
    return None


def _literal_allowed(name: str, egress: Egress) -> bool:
    """Whether a (canonical) host written as an address, or a loopback name, may be reached (any other name:
    yes, until it is resolved at delivery). AI_NUMERICHOST reads every spelling the resolver reads, without a
    lookup."""
    try:
        infos = socket.getaddrinfo(name, None, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
    except (socket.gaierror, UnicodeError):
        named_local = name in _LOOPBACK_NAMES or name.endswith(".localhost")  # RFC 6761: always loopback
        return not named_local or name in egress.hosts
    return all(egress.allows(name, _address(str(info[4][0]))) for info in infos)


@dataclass(frozen=True)
class Answer:
    """One attempt's outcome: the HTTP status (None: none came), what the game master reads, what the log gets."""

    status: int | None
    outcome: str
    detail: str = ""

    @property
    def delivered(self) -> bool:
        """Whether the receiver took the delivery (a 2xx answer)."""
        return self.status is not None and 200 <= self.status < 300


def post(url: str, body: bytes, headers: dict[str, str], egress: Egress, timeout: float) -> Answer:
    """POST `body` to a checked address of the URL's host, within `timeout` seconds once the host is resolved
    (connecting to each address in turn, sending, reading the answer's head); never raises. The URL is checked
    again first, as when it was set (a URL kept from before a rule, or an allow-list since narrowed)."""
    problem = url_problem(url, len(url), egress)  # its length was checked when it was set
    if problem is not None:
        return Answer(None, problem, f"{url[:100]!r}: {problem}")
    parts = urlsplit(url)
    host = canonical_host(parts.hostname or "") or ""  # url_problem took it: a name or an address
    https = parts.scheme.lower() == "https"
    try:
        port = parts.port or (443 if https else 80)
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        addresses = [_address(str(info[4][0])) for info in infos]
    except (OSError, UnicodeError, ValueError) as exc:
        return Answer(None, NO_PUBLIC_ADDRESS, f"{host}: lookup failed: {exc}")
    refused = [str(a) for a in addresses if not egress.allows(host, a)]
    if refused or not addresses:
        return Answer(None, NO_PUBLIC_ADDRESS, f"{host} resolves to {', '.join(refused) or 'nothing'}: not allowed")
    deadline = time.monotonic() + timeout
    try:
        return _exchange(parts, host, port, addresses, https, body, headers, deadline)
    except (OSError, http.client.HTTPException, ValueError) as exc:  # ssl.SSLError is an OSError
        return Answer(None, NO_ANSWER, f"{host}:{port}: {type(exc).__name__}: {exc}")


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the attempt's time is up")
    return left


def _exchange(parts, host: str, port: int, addresses: list[Address], https: bool, body: bytes,
              headers: dict[str, str], deadline: float) -> Answer:
    """Connect to the first checked address that answers, send the request, read the status line and headers."""
    sock = _connect(addresses, port, deadline)
    # One deadline for the whole exchange: a receiver sending its answer a byte at a time would otherwise hold
    # the sender for as long as it likes (each read has its own timeout).
    current = [sock]
    watchdog = threading.Timer(_left(deadline), lambda: _shut(current[0]))
    watchdog.start()
    try:
        try:
            host = host.encode("idna").decode("ascii")  # an international name as the wire carries it
        except UnicodeError:
            pass  # an address
        if https:
            sock = current[0] = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
        shown = f"[{host}]" if ":" in host else host
        default = 443 if https else 80
        conn = http.client.HTTPConnection(host, port, timeout=_left(deadline))
        conn.sock = sock  # already connected, to the address checked: http.client does not look the host up
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        conn.request("POST", path, body=body, headers={
            **headers, "Host": shown if port == default else f"{shown}:{port}", "Connection": "close"})
        response = conn.getresponse()
        status = response.status
        conn.close()
    finally:
        watchdog.cancel()
        sock.close()
    if 300 <= status < 400:
        return Answer(status, f"HTTP {status}: redirects are not followed")
    return Answer(status, f"HTTP {status}")


def _connect(addresses: list[Address], port: int, deadline: float) -> socket.socket:
    last: OSError = OSError("no address")
    for address in addresses:
        family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(_left(deadline))
            sock.connect((str(address), port))
            return sock
        except OSError as exc:  # TimeoutError included
            sock.close()
            last = exc
            if isinstance(exc, TimeoutError):
                break  # the deadline is past: no address is tried after it
    raise last


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)  # wakes the sender's blocked read, which then fails
    except OSError:
        pass

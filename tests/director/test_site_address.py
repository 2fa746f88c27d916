"""The site's public address: shown on the dashboard and the toolkit, set
from the pages by an administrator (stored in the database, falling back to the
SITE_URL setting), and a warning before printing QR codes that point at a loopback
address."""

from __future__ import annotations

import pytest

from core import printing, services
from core.errors import Forbidden, InvalidInput
from core.site.selectors import is_loopback, site_url
from tests.html import signed_in
from tournaments.models import SiteSetting

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url, loopback",
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.3.2.1", True),
        ("http://localhost:8000", True),
        ("http://[::1]:8000", True),
        ("http://192.168.1.20:8000", False),
        ("https://kalooki.example.org", False),
    ],
)
def test_loopback_addresses_are_recognised(url, loopback):
    assert is_loopback(url) is loopback


def test_the_stored_address_comes_first_then_the_setting_then_the_request(settings, root):
    settings.SITE_URL = ""
    assert site_url("http://testserver/") == "http://testserver"
    settings.SITE_URL = "https://from-setting.example.org/"
    assert site_url("http://testserver/") == "https://from-setting.example.org"
    services.set_site_url(site_url="192.168.1.20:8000", by=root)
    assert site_url("http://testserver/") == "http://192.168.1.20:8000"
    assert printing.default_base_url() == "http://192.168.1.20:8000"
    services.set_site_url(site_url="", by=root)
    assert site_url("http://testserver/") == "https://from-setting.example.org"
    assert SiteSetting.objects.get().history.count() == 2


@pytest.mark.parametrize(
    "value, reason",
    [
        ("ftp://x.org", "is not a web address"),
        ("https://x.org/some/path", "without a path"),
        ("http://x.org:port", "is not an address"),
        ("http://ex ample.com", "'ex ample.com' is not a host name or an IP address"),
        ("http://-venue.org", "is not a host name"),
        ("http://" + "a" * 300 + ".com", "is not a host name"),  # a label is 63 at most
        ("http://" + ".".join(["a" * 60] * 5), "is not a host name"),  # 253 at most in all
    ],
)
def test_a_bad_address_is_refused_with_the_reason(root, value, reason):
    """Refused before anything is written (a host with a space or a hyphen at a label's
    edge, a name too long to look up, which is also too long for its column)."""
    with pytest.raises(InvalidInput, match=reason):
        services.set_site_url(site_url=value, by=root)
    assert not SiteSetting.objects.exists()


def test_only_an_administrator_sets_the_address(w, director):
    with pytest.raises(Forbidden):
        services.set_site_url(site_url="https://x.org", by=w.alice)
    response = director.post("/director/site/", {"site_url": "https://x.org"})
    assert response.status_code == 403
    assert "Only an administrator may change the site" in response.content.decode()
    assert not SiteSetting.objects.exists()


def test_the_dashboard_warns_before_printing_qr_codes_to_a_loopback_address(w, settings):
    settings.SITE_URL = ""
    root = signed_in(w.root)
    page = root.get(w.url(), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "Before printing QR codes:" in page and "http://127.0.0.1:8000" in page
    assert 'data-confirm="These QR codes point at http://127.0.0.1:8000' in page
    toolkit = root.get(w.url("toolkit/"), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "Before printing QR codes:" in toolkit
    response = root.post(
        "/director/site/",
        {"site_url": "http://192.168.1.20:8000/", "next": w.url()},
        HTTP_HOST="127.0.0.1:8000",
        follow=True,
    )
    page = response.content.decode()
    assert "The QR codes now point at http://192.168.1.20:8000." in page
    assert "Before printing QR codes:" not in page
    assert "QR codes open http://192.168.1.20:8000" in page


@pytest.mark.parametrize(
    "value", ["http://192.168.1.20:8000", "https://kalooki.example.org", "http://[::1]:8000"]
)
def test_a_good_address_is_kept(root, value):
    assert services.set_site_url(site_url=value, by=root).site_url == value

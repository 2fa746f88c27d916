"""What a rebuild makes from its standings document at every version
(settings.STANDINGS_PRODUCTS): before it announces the version, the leaderboard's first
page, so that the push server sending it to every open page, and the web processes
answering its polls, find it made instead of each reading the 1.4 MB document back to
make it; after it, the standings API's whole list, claimed before so that its readers
wait for it. And the leaderboard kept apart from its standings (the document is not
pickled twice)."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from core import caching, services
from game.rules import HandEntry, SeatEntry
from public import live, views
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

FIRST_PAGE = "public.views.keep_first_page"
WHOLE_LIST = "api.standings.keep_whole_list"


@pytest.fixture(autouse=True)
def products(settings):
    """As with a shared cache (CACHE_URL), which the tests' own cache stands in for."""
    settings.STANDINGS_PRODUCTS = [WHOLE_LIST, FIRST_PAGE]  # as production orders them


SCORES = (SeatEntry(2, 30), SeatEntry(3, 7), SeatEntry(4, 9))


def play_a_hand(slug: str, **fields) -> Event:
    event = make_event(slug=slug, **fields)
    make_round(event, table_sizes=(4,), entries=make_entries(event, 4))
    table = event.rounds.get().tables.get()
    services.record_hand(table=table, number=1, entry=HandEntry(went_out=1, scores=SCORES))
    return event


def region_key(slug: str, push: bool = False, language: str = "en") -> str:
    with translation.override(language):
        return live.page_key(f"board:{slug}:1{':push' if push else ''}")


def never_rendered(*args, **kwargs):
    raise AssertionError("the region was rendered again")


def test_the_job_makes_the_first_page_before_it_announces_the_version(
    monkeypatch, django_assert_num_queries
):
    kept = []
    real = cache.set
    monkeypatch.setattr(cache, "set", lambda key, *a, **k: kept.append(key) or real(key, *a, **k))
    play_a_hand("kingston")
    assert region_key("kingston") in kept
    assert kept.index(region_key("kingston")) < kept.index(caching.version_key("kingston"))
    # What the push server and a poll then do: the region is read, not made again.
    caching.forget_process_copies()
    event = live.public_event(AnonymousUser(), "kingston")
    assert event.standings_version == 1
    monkeypatch.setattr(views, "render_to_string", never_rendered)
    with translation.override("en"), django_assert_num_queries(0):
        html = views.board_region(event, 1, "")
    assert html.index(">30<") > html.index(">9<") > html.index(">7<")


def test_with_the_push_on_the_first_page_made_names_its_stream(settings):
    settings.LIVE_PUSH = True
    play_a_hand("port-antonio")
    assert cache.get(region_key("port-antonio")) is None  # the copy without the stream
    sig, html = cache.get(region_key("port-antonio", push=True))
    assert 'data-push="/events/port-antonio/live/push/?v=1&amp;s=0&amp;lang=en"' in (
        caching.opened((sig, html), sig)
    )


def test_the_leaderboard_is_kept_apart_from_its_standings():
    play_a_hand("montego-bay")
    caching.reset()
    event = live.public_event(AnonymousUser(), "montego-bay")
    with translation.override("en"):
        board = live.board(event)
        kept = caching.opened(cache.get(live.board_key(event)), live.signature(event))
    assert [row.points for row in board.rows] == [0, 7, 9, 30]
    assert kept.standings is None and kept.progress == board.progress


def failing(event, standings):
    raise RuntimeError("no room for it")


def test_a_product_that_fails_does_not_stop_the_announcement(settings, caplog):
    settings.STANDINGS_PRODUCTS = ["tests.core.test_standings_products.failing"]
    with caplog.at_level(logging.ERROR, logger="core.standings.document"):
        play_a_hand("ocho-rios")
    assert cache.get(caching.version_key("ocho-rios")) == (1, True)
    assert "no room for it" in caplog.text


def test_nothing_is_made_for_a_private_event(caplog):
    with caplog.at_level(logging.ERROR, logger="core.standings.document"):
        event = play_a_hand("negril", public=False)
    assert Event.objects.get(pk=event.pk).standings_version == 1
    assert cache.get(region_key("negril")) is None
    assert caplog.text == ""


def test_the_first_page_is_made_in_the_events_language():
    play_a_hand("mandeville", language="ru")
    assert cache.get(region_key("mandeville")) is None
    sig, kept = cache.get(region_key("mandeville", language="ru"))
    assert "Таблица после тура 1 (тур идёт)" in caching.opened((sig, kept), sig)


def test_nothing_is_made_for_an_event_finished_since_the_rebuild():
    """The document is keyed by the rebuild's status: a page of the event finished
    since must say final, which the rebuild's document does not."""
    event = play_a_hand("lucea")
    rebuilt = Event.objects.get(pk=event.pk)
    standings = cache.get(caching.versioned_key("standings", event.pk, 1, rebuilt.status, None))
    caching.reset()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    views.keep_first_page(rebuilt, standings)
    assert cache.get(region_key("lucea")) is None


def test_without_a_shared_cache_nothing_is_made(settings):
    settings.STANDINGS_PRODUCTS = []
    play_a_hand("savanna-la-mar")
    assert cache.get(region_key("savanna-la-mar")) is None


def test_the_job_makes_the_whole_list_of_the_api(monkeypatch, client):
    from api import standings as api

    play_a_hand("port-royal", language="ru")  # the API answers in English all the same
    caching.forget_process_copies()
    monkeypatch.setattr(api.standings_shape, "represented", never_rendered)
    monkeypatch.setattr(api, "JSONRenderer", never_rendered)
    answer = client.get("/api/v1/events/port-royal/standings/")
    assert answer.status_code == 200
    assert answer.json()["version"] == 1
    assert [row["points"] for row in answer.json()["standings"]] == [0, 7, 9, 30]


def test_no_whole_list_is_made_for_a_private_event(settings, monkeypatch):
    from api import standings as api

    settings.STANDINGS_PRODUCTS = [WHOLE_LIST]
    made, claimed = [], []
    monkeypatch.setattr(api.standings_shape, "represented", lambda *args: made.append(args))
    monkeypatch.setattr(api, "claim_all", lambda keys: claimed.extend(keys) or True)
    play_a_hand("black-river", public=False)
    assert made == [] and claimed == []
    play_a_hand("white-river")  # which a public event's is
    assert len(made) == 1 and len(claimed) == 2


def test_the_api_list_is_claimed_before_the_announcement_and_made_after(monkeypatch):
    """The pages' version is not held for the API's list, and a reader at the new
    version finds it claimed: it waits for it rather than make it too."""
    from api import standings as api
    from core.standings import services as standings

    claimed, at_announcement, kept = [], [], []
    real_claim, real_keep, real_announce = api.claim_all, api.keep_claimed, standings.announce_now

    def claim(keys):
        claimed.extend(keys)
        return real_claim(keys)

    def announce(event, version):
        at_announcement.extend(cache.get(caching.claim_key(key)) for key in claimed)
        real_announce(event, version)

    def keep(key, value):
        kept.append(cache.get(caching.version_key("kingston")))
        real_keep(key, value)

    monkeypatch.setattr(api, "claim_all", claim)
    monkeypatch.setattr(api, "keep_claimed", keep)
    monkeypatch.setattr(standings, "announce_now", announce)
    play_a_hand("kingston")
    assert len(claimed) == 2 and at_announcement == [1, 1]  # claimed then
    assert kept == [(1, True), (1, True)]  # made once the version was announced
    assert [cache.get(caching.claim_key(key)) for key in claimed] == [None, None]


def test_the_document_is_claimed_before_the_announcement_and_kept_after(monkeypatch, caplog):
    """The pages' version is not held for pickling the document: at the announcement it
    is claimed, not kept, and it is kept before the API's list is made; the rebuild's
    own products never wait for the claim it holds."""
    from api import standings as api
    from core.standings import document
    from core.standings import services as standings
    from core.standings.selectors import standings_key

    def never_waited(*args):
        raise AssertionError("a product waited for the rebuild's own claim")

    at_announcement, order = [], []
    real_announce, real_keep = standings.announce_now, api.keep_claimed

    def announce(event, version):
        key = standings_key(event)
        at_announcement.append((cache.get(caching.claim_key(key)), cache.get(key)))
        real_announce(event, version)

    def api_keep(key, value):
        order.append("api")
        real_keep(key, value)

    real_document_keep = document.keep_claimed

    def document_keep(key, value):
        order.append("document")
        real_document_keep(key, value)

    monkeypatch.setattr(caching, "built_elsewhere", never_waited)
    monkeypatch.setattr(standings, "announce_now", announce)
    monkeypatch.setattr(api, "keep_claimed", api_keep)
    monkeypatch.setattr(document, "keep_claimed", document_keep)
    with caplog.at_level(logging.ERROR):
        event = play_a_hand("annotto-bay")
    assert caplog.text == ""  # no product failed (a wait would have)
    assert cache.get(region_key("annotto-bay")) is not None  # the first page made
    assert at_announcement == [(1, None)]  # claimed, not kept
    assert order == ["document", "api", "api"]  # the document first: most readers need it
    key = standings_key(Event.objects.get(pk=event.pk))
    assert cache.get(caching.claim_key(key)) is None
    assert [row.points for row in cache.get(key).rows] == [0, 7, 9, 30]


def test_the_job_waits_for_no_claim_while_readers_wait_for_its_own(monkeypatch, caplog):
    """A web process that claimed the first page at the new version (a poll that read
    the version before its announcement) waits for the document to make it, which the
    job keeps after the announcement: the job, making the same page, builds it too
    rather than wait for that claim (each would have waited for the other until
    BUILD_WAIT)."""
    real_add = cache.add
    taken = []

    def another_process_claims_the_page(key, *args, **kwargs):
        if key.startswith(region_key("ocho-rios")) and ":building:" in key:
            real_add(key, *args, **kwargs)  # held by the other process
            taken.append(key)
            return False
        return real_add(key, *args, **kwargs)

    def waited(seconds):
        raise AssertionError("the job waited for another process's claim")

    monkeypatch.setattr(cache, "add", another_process_claims_the_page)
    monkeypatch.setattr(caching.time, "sleep", waited)
    with caplog.at_level(logging.ERROR):
        event = play_a_hand("ocho-rios")
    assert taken and "waited" not in caplog.text
    event = live.public_event(AnonymousUser(), "ocho-rios")
    assert event.standings_version == 1  # announced
    kept = cache.get(region_key("ocho-rios"))
    assert ">30<" in caching.opened(kept, live.signature(event))  # the new version's page
    assert all(cache.get(key) is None for key in taken)  # the waiters let go


def test_the_job_waits_for_no_thread_of_its_process_building_what_it_makes():
    """Without a broker the job runs in a web process, where a request's thread may be
    building the first page at the new version (it read the version from the database)
    and waiting, its lock held, for the document the job claimed: the job builds the
    page alongside rather than wait for that lock."""
    import threading

    held, done = threading.Event(), threading.Event()
    holding = []

    def a_request_building_the_page() -> None:
        with translation.override("en"), caching.one_builder(region_key("lucea")):
            held.set()
            done.wait(10)  # until the job is over (or it waited for this lock)
            holding.append(done.is_set())

    request = threading.Thread(target=a_request_building_the_page)
    request.start()
    held.wait(5)
    play_a_hand("lucea")
    done.set()
    request.join()
    assert holding == [True]  # the job ended while the request held its lock
    event = live.public_event(AnonymousUser(), "lucea")
    assert event.standings_version == 1
    assert ">30<" in caching.opened(cache.get(region_key("lucea")), live.signature(event))


def test_a_document_that_fails_to_be_made_is_let_go(monkeypatch, caplog):
    from core.standings import document
    from core.standings.selectors import standings_key

    def fails(*args):
        raise RuntimeError("made badly")

    monkeypatch.setattr(document, "rebuilt_standings", fails)
    with caplog.at_level(logging.ERROR):
        play_a_hand("buff-bay")  # the hand is recorded all the same
    assert "keep_and_announce" in caplog.text and "made badly" in caplog.text  # logged
    event = Event.objects.get(slug="buff-bay")
    key = standings_key(event)
    assert event.standings_version == 1
    assert cache.get(caching.claim_key(key)) is None  # its readers make it, at once
    assert cache.get(key) is None


def test_a_document_that_cannot_be_kept_lets_its_claim_go(monkeypatch, caplog):
    """The cache refusing the document (full, or going down) as the job keeps it: the
    version is announced all the same, and its readers make the document at once rather
    than wait for a claim that nothing will keep."""
    from core.standings.selectors import standings_key

    real_set = cache.set

    def refusing(key, *args, **kwargs):
        if key.startswith("kalooki:standings:"):
            raise ConnectionError("no room for the document")
        return real_set(key, *args, **kwargs)

    monkeypatch.setattr(cache, "set", refusing)
    with caplog.at_level(logging.ERROR):
        play_a_hand("bath")
    assert "no room for the document" in caplog.text
    event = Event.objects.get(slug="bath")
    key = standings_key(event)
    assert cache.get(caching.claim_key(key)) is None and cache.get(key) is None
    assert cache.get(caching.version_key("bath")) == (1, True)  # announced


def test_a_reader_at_the_new_version_waits_for_the_claimed_list(monkeypatch):
    import threading
    import time

    from api import standings as api

    event = play_a_hand("port-maria")
    caching.reset()
    event = Event.objects.get(pk=event.pk)
    with translation.override("en"):
        standings = api.selectors.standings_after(event, None)
    made = []
    real = api.standings_shape.represented
    monkeypatch.setattr(
        api.standings_shape, "represented", lambda *args: made.append(args) or real(*args)
    )
    rest = api.keep_whole_list(event, standings)  # claimed, as before an announcement
    maker = threading.Timer(0.3, rest)  # made after it
    maker.start()
    began = time.monotonic()
    with translation.override("en"):
        body, _gzip = api.rendered(event, None, None, 0, "en")  # a reader meanwhile
    waited = time.monotonic() - began
    maker.join()
    assert len(made) == 1 and waited >= 0.25  # the claimant's, which the reader waited for
    assert b'"version":1' in body and body.count(b'"rank"') == 4


def test_the_api_list_made_by_a_reader_is_not_made_again(monkeypatch):
    from api import standings as api

    event = play_a_hand("port-morant")
    caching.reset()
    event = Event.objects.get(pk=event.pk)
    client = Client()
    assert client.get("/api/v1/events/port-morant/standings/").status_code == 200  # a reader
    with translation.override("en"):
        standings = api.selectors.standings_after(event, None)
    assert api.keep_whole_list(event, standings) is None  # nothing left to make


def test_the_pages_made_by_the_rebuild_are_the_ones_a_request_makes():
    """Byte for byte: the first page's region and the API's whole list, made by the
    rebuild, against the same made afresh by requests with nothing kept. A client that
    names no language: the page in the event's, the API in English."""
    client = Client()
    play_a_hand("falmouth", language="ru")
    poll = "/events/falmouth/live/?v=0&s=0"  # an older version: answered with the region
    answers = [client.get(poll), client.get("/api/v1/events/falmouth/standings/")]
    assert all(answer.status_code == 200 for answer in answers)
    caching.reset()
    again = [client.get(poll), client.get("/api/v1/events/falmouth/standings/")]
    assert [a.content for a in answers] == [a.content for a in again]
    assert "Таблица после тура 1 (тур идёт)" in answers[0].content.decode()


def test_what_was_claimed_is_made_even_when_the_announcement_fails(monkeypatch, caplog):
    from api import standings as api
    from core.standings import services as standings

    def cache_down(event, version):
        raise ConnectionError("the cache is down")

    claimed = []
    real = api.claim_all
    monkeypatch.setattr(api, "claim_all", lambda keys: claimed.extend(keys) or real(keys))
    monkeypatch.setattr(standings, "announce_now", cache_down)
    with caplog.at_level(logging.ERROR):
        play_a_hand("port-esquivel")
    assert "the cache is down" in caplog.text
    assert len(claimed) == 2
    assert [cache.get(caching.claim_key(key)) for key in claimed] == [None, None]  # let go
    assert all(cache.get(key) is not None for key in claimed)  # made

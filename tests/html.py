"""Reading pages in tests: clients signed in as anyone, a hand row's POST, and just
enough of an HTML parser to read a page like a director."""

from __future__ import annotations

from html.parser import HTMLParser

from django.test import Client


def signed_in(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


HTMX = {"HTTP_HX_REQUEST": "true"}


def row(**fields) -> dict[str, str]:
    """A hand row's POST: seat1=..., went_out=..., version=0 unless given."""
    data = {"version": "0"}
    data.update({key: str(value) for key, value in fields.items()})
    return data


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Page(HTMLParser):
    """Just enough of an HTML page to read it like a director: the text of an element by
    id, and the value of a hand row's field as the browser would show it."""

    def __init__(self, html: bytes | str) -> None:
        super().__init__()
        self.texts: dict[str, list[str]] = {}
        self.attributes: dict[str, dict[str, str]] = {}
        self.fields: dict[tuple[str, str], dict] = {}  # (form id, name) -> field
        self._open: list[tuple[str, str | None]] = []
        self._select: dict | None = None
        self._form = ""  # the form being read: its own fields need no form= attribute
        self.feed(html.decode() if isinstance(html, bytes) else html)

    def handle_starttag(self, tag, attrs):
        attrs = {key: value or "" for key, value in attrs}
        if "id" in attrs:
            self.attributes[attrs["id"]] = attrs
            self.texts.setdefault(attrs["id"], [])
        if tag == "form":
            self._form = attrs.get("id", "")
        key = (attrs.get("form", self._form), attrs.get("name", ""))
        if tag == "input":
            checked = "checked" in attrs
            self.fields[key] = {"tag": tag, "attrs": attrs, "value": attrs.get("value", "")}
            if attrs.get("type") == "checkbox":
                self.fields[key]["value"] = checked
        elif tag == "select":
            self._select = self.fields[key] = {"tag": tag, "attrs": attrs, "value": None}
        elif (
            tag == "option"
            and self._select is not None
            and ("selected" in attrs or self._select["value"] is None)
        ):
            self._select["value"] = attrs.get("value", "")
        if tag not in VOID:
            self._open.append((tag, attrs.get("id")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        if tag == "form":
            self._form = ""
        while self._open:
            open_tag, _ = self._open.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        for _, element_id in self._open:
            if element_id is not None:
                self.texts[element_id].append(data)

    def text(self, element_id: str) -> str:
        if element_id not in self.texts:
            raise KeyError(f"no element #{element_id}")
        return " ".join(" ".join(self.texts[element_id]).split())

    def has(self, element_id: str) -> bool:
        return element_id in self.attributes

    def attrs(self, element_id: str) -> dict[str, str]:
        return self.attributes[element_id]

    def value(self, hand: int, name: str):
        """A hand row's field: a box's text, a select's chosen value, a checkbox's state."""
        return self.fields[(f"hand-{hand}-form", name)]["value"]

    def field(self, hand: int, name: str) -> dict:
        return self.fields[(f"hand-{hand}-form", name)]

    def problems(self, hand: int) -> list[str]:
        text = self.texts.get(f"hand-{hand}-problems")
        return [] if text is None else self._items(f"hand-{hand}-problems")

    def _items(self, element_id: str) -> list[str]:
        return [line for line in (s.strip() for s in self.texts[element_id]) if line]

"""The app's forms as the browser sees them: read from every page, so a new form is fuzzed without a line here.

Each GET page of a role is parsed; every ``<form method="post">`` is recorded under its action URL
with its fields (name, type, and the values a select, radio or checkbox offers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

from flask import url_for


@dataclass
class Field:
    name: str
    kind: str  # text, textarea, select, radio, checkbox, number, date, file, hidden...
    options: list[str] = field(default_factory=list)
    value: str = ""
    maxlength: int | None = None


@dataclass
class Form:
    action: str
    role: str
    fields: dict[str, Field] = field(default_factory=dict)


class _FormParser(HTMLParser):
    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: Field | None = None

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        if tag == "form" and attrs.get("method", "get").lower() == "post":
            action = urlsplit(attrs.get("action") or self.page_url).path
            self.current = Form(action, "")
            self.forms.append(self.current)
        elif self.current is None or "name" not in attrs:
            if tag == "option" and self.select is not None:
                self.select.options.append(attrs.get("value", ""))
            return
        elif tag in ("input", "button"):
            kind = attrs.get("type", "text" if tag == "input" else "submit").lower()
            known = self.current.fields.setdefault(attrs["name"], Field(attrs["name"], kind))
            if kind in ("radio", "checkbox", "submit", "hidden"):
                known.options.append(attrs.get("value", "on" if kind == "checkbox" else ""))
            known.value = known.value or attrs.get("value", "")
            known.maxlength = int(attrs["maxlength"]) if attrs.get("maxlength", "").isdigit() else known.maxlength
        elif tag == "textarea":
            known = self.current.fields.setdefault(attrs["name"], Field(attrs["name"], "textarea"))
            known.maxlength = int(attrs["maxlength"]) if attrs.get("maxlength", "").isdigit() else known.maxlength
        elif tag == "select":
            self.select = self.current.fields.setdefault(attrs["name"], Field(attrs["name"], "select"))
        if tag == "option" and self.select is not None:
            self.select.options.append(attrs.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None


def crawl_forms(app, clients: dict, ids: dict) -> dict[tuple[str, str], Form]:
    """One POST form per endpoint on the GET pages each role can open, keyed by (role, action path).

    The same form shown for many rows (a retire button per competency) is kept once, for the first row.
    """
    forms: dict[tuple[str, str], Form] = {}
    endpoints: dict[tuple[str, str], str] = {}
    adapter = app.url_map.bind("localhost")
    with app.test_request_context():
        urls = sorted({url_for(rule.endpoint, **{a: ids[a] for a in rule.arguments})
                       for rule in app.url_map.iter_rules()
                       if "GET" in rule.methods and rule.endpoint != "static" and set(rule.arguments) <= set(ids)})
    for role, client in clients.items():
        for url in urls:
            response = client.get(url)
            if response.status_code != 200 or response.mimetype != "text/html":
                continue
            parser = _FormParser(url)
            parser.feed(response.get_data(as_text=True))
            for form in parser.forms:
                try:
                    endpoint, _ = adapter.match(form.action, method="POST")
                except Exception:  # noqa: BLE001 - a form posting nowhere the app knows is not fuzzed
                    continue
                action = endpoints.setdefault((role, endpoint), form.action)
                if action != form.action:
                    continue
                known = forms.setdefault((role, form.action), Form(form.action, role))
                for name, item in form.fields.items():
                    merged = known.fields.setdefault(name, Field(name, item.kind, value=item.value,
                                                                 maxlength=item.maxlength))
                    merged.options = sorted(set(merged.options) | set(item.options))
    return forms

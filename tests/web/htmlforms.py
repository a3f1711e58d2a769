"""A tiny HTML form reader for the tests: what a browser would submit."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Form:
    action: str
    method: str
    attrs: dict
    fields: dict = field(default_factory=dict)  # hidden and text inputs: name -> value
    numbers: list = field(default_factory=list)  # (name, min, max, value)
    selects: dict = field(default_factory=dict)  # name -> [option values] (a select, or radio buttons)
    buttons: list = field(default_factory=list)  # (name, value, label)

    def submission(self, button=0, number=None, option=0) -> dict:
        data = dict(self.fields)
        for name, _lo, _hi, value in self.numbers:
            data[name] = str(value if number is None else number)
        for name, values in self.selects.items():
            data[name] = values[option % len(values)]
        name, value, _label = self.buttons[button]
        if name:
            data[name] = value
        return data


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.button: list | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.form = Form(a.get("action", ""), a.get("method", "get").lower(), a)
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag == "input":
            kind = a.get("type", "text")
            if kind == "number":
                self.form.numbers.append((a["name"], int(a["min"]), int(a["max"]), int(a.get("value") or a["min"])))
            elif kind == "radio" and a.get("name"):
                self.form.selects.setdefault(a["name"], []).append(a.get("value", "on"))
            elif kind in ("hidden", "text") and a.get("name"):
                self.form.fields[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select = a["name"]
            self.form.selects[self.select] = []
        elif tag == "option" and self.select:
            self.form.selects[self.select].append(a["value"])
        elif tag == "button" and a.get("type", "submit") == "submit":
            self.button = [a.get("name"), a.get("value"), ""]

    def handle_data(self, data):
        if self.button is not None:
            self.button[2] += data

    def handle_endtag(self, tag):
        if tag == "button" and self.button is not None and self.form is not None:
            self.form.buttons.append((self.button[0], self.button[1], " ".join(self.button[2].split())))
            self.button = None
        elif tag == "select":
            self.select = None
        elif tag == "form":
            self.form = None


def forms(html: str) -> list[Form]:
    reader = _Reader()
    reader.feed(html)
    return reader.forms

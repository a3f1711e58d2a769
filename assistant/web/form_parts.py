"""The parts of a decision form (``action_forms.build`` makes them from the engine's menu): its
buttons, its number field, its list or rows to choose from, and the forms grouped by title."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Button:
    label: str
    name: str | None = None
    value: str | None = None
    color: str | None = None  # company colour, for a chip
    primary: bool = False


@dataclass
class NumberInput:
    name: str
    label: str
    min: int
    max: int
    value: int


@dataclass
class Choice:
    value: str
    label: str


@dataclass
class Radio:
    value: str
    label: str
    detail: str = ""  # a second, smaller line (e.g. the start of a charter's special ability)
    more: str = ""  # the whole text, folded below the group (a charter's ability in full)


@dataclass
class RadioGroup:
    """One question answered by tapping one of several large rows (phone friendly)."""

    name: str  # the event field (``e.<name>``)
    legend: str
    options: list[Radio]


@dataclass
class ActionForm:
    hidden: dict
    buttons: list[Button]
    number: NumberInput | None = None
    select: list[Choice] | None = None
    select_label: str = ""
    actor: str | None = None  # the player who decides (for seat highlighting)
    big: bool = False
    radios: list[RadioGroup] = field(default_factory=list)
    confirm: str | None = None  # asked first, behind a fold: the button then says "Yes, …"

    @property
    def key(self) -> str:
        """Names this form across re-renders (a phone keeps what was typed into it)."""
        return "&".join(f"{k}={v}" for k, v in sorted(self.hidden.items()))


@dataclass
class ActionGroup:
    title: str
    forms: list[ActionForm] = field(default_factory=list)
    actor: str | None = None


def _hidden(item: dict, keys) -> dict:
    out = {"type": item["type"]}
    for key in keys:
        if item.get(key) is not None:
            out[key] = item[key]
    return out

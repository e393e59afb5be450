"""Rules options, each declared once: its type, default, choices and one line of help.

A rule set's options are a :class:`RulesOptions` model (pydantic). The declaration is the one
source for everything that reads or shows an option: scenario and record files
(:meth:`RulesOptions.from_dict`, :meth:`RulesOptions.to_dict`), the command line
(``--option NAME=VALUE``, ``leviathans options``), the server (``/api/meta`` lists
:meth:`RulesOptions.declared`) and the browser lobby's form, which is built from that list. A
new option is one field here: nothing else needs an edit.

Types are strict: ``true`` is not 1 and ``"9"`` is not 9.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from .errors import ScenarioError, one_line, shown

__all__ = ["OptionInfo", "RulesOptions", "command_line_options", "option", "options_model",
           "options_table"]


def option(*, help: str, record_default: bool = True, lobby: bool = True,
           defaults_by: Mapping[str, Mapping[Any, Any]] | None = None) -> dict[str, Any]:
    """What an option declares besides its type and default: ``help``, one line for people;
    ``record_default=False``: left out of records while it has its default (options added
    after records were made, so old records stay as they were); ``lobby``: offered among the
    browser's new-game form's rules options (``False`` for those the form has a control of its
    own for: the turn limit, the initiative); ``defaults_by``: a default that depends on
    another option, ``{"rules": {"commander": False}}``: when the option is not given and
    ``rules`` is ``"commander"``, it is ``False``."""
    extra: dict[str, Any] = {"record_default": record_default, "lobby": lobby}
    if defaults_by:
        extra["defaults_by"] = {k: dict(v) for k, v in defaults_by.items()}
    return {"description": help, "json_schema_extra": extra}


class OptionInfo(dict[str, Any]):
    """One option as the command line, the server and the lobby see it: ``name``, ``type``
    (``int``, ``bool``, ``choice`` or ``text``), ``default``, ``choices`` (for a choice),
    ``optional`` (may be ``None``: no value), ``minimum``, ``help``, ``lobby``,
    ``defaults_by`` (defaults that depend on another option's value)."""


class RulesOptions(BaseModel):
    """The base of a rule set's options model."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    #: the rule set's name, in messages
    ruleset: ClassVar[str] = ""

    @model_validator(mode="before")
    @classmethod
    def _defaults_by(cls, data: Any) -> Any:
        """Options not given whose default depends on another option (``defaults_by``)."""
        if not isinstance(data, Mapping):
            return data
        filled = dict(data)
        for name, field in cls.model_fields.items():
            extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
            rules = extra.get("defaults_by")
            if name in data or not isinstance(rules, dict):
                continue
            for other, by_value in rules.items():
                value = data.get(other, cls.model_fields[other].default)
                if isinstance(by_value, dict) and value in by_value:
                    filled[name] = by_value[value]
        return filled

    @classmethod
    def from_dict(cls, data: Any, where: str = "options") -> Any:
        """Options from a scenario's or record's table; a bad value is a one-line error naming
        the option."""
        if not isinstance(data, Mapping):
            raise ScenarioError(f"{where}: expected a table, got {shown(data)}")
        names = set(cls.model_fields)
        unknown = [str(k) for k in data if k not in names]
        if unknown:
            raise ScenarioError(f"{where}: unknown option(s) {', '.join(sorted(unknown))} "
                                f"(known: {', '.join(sorted(names))})")
        for info in cls.declared():
            value = data.get(info["name"])
            if info["name"] in data and info["type"] == "choice" and not (
                    value is None and info["optional"]) and not any(
                    type(value) is type(c) and value == c for c in info["choices"]):
                # 4.0 is not the choice 4, nor true 1: the same type or nothing
                named = one_line(repr(value))
                raise ScenarioError(
                    f"{where}.{info['name']}: {named} is not one of "
                    f"{', '.join(str(c) for c in info['choices'])} (there is no "
                    f"{info['name']} {named})")
        try:
            return cls.model_validate(dict(data))
        except ValidationError as exc:
            raise ScenarioError(cls._problem(exc, data, where)) from None

    @classmethod
    def _problem(cls, exc: ValidationError, data: Mapping[str, Any], where: str) -> str:
        error = exc.errors()[0]
        name = str(error["loc"][0]) if error["loc"] else ""
        raw = data.get(name, error.get("input"))
        value = shown(raw)
        info = next((o for o in cls.declared() if o["name"] == name), None)
        if info is None:  # a rule between options (a model validator)
            return f"{where}: {error['msg'].removeprefix('Value error, ')}"
        if info["type"] == "choice":
            choices = ", ".join(str(c) for c in info["choices"])
            named = one_line(repr(raw))
            return (f"{where}.{name}: {named} is not one of {choices} (there is no {name} "
                    f"{named})")
        if error["type"] == "greater_than_equal":
            return f"{where}.{name}: must be {info['minimum']} or more, got {value}"
        if error["type"] == "value_error":
            return f"{where}.{name}: {error['msg'].removeprefix('Value error, ')}"
        kind = {"int": "a whole number", "bool": "true or false", "text": "text"}[info["type"]]
        none = " (or nothing)" if info["optional"] else ""
        return f"{where}.{name}: expected {kind}{none}, got {value}"

    def to_dict(self) -> dict[str, Any]:
        """The options as plain data for scenarios and records."""
        out: dict[str, Any] = {}
        for name, field in type(self).model_fields.items():
            value = getattr(self, name)
            extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
            if not extra.get("record_default", True) and value == field.default:
                continue
            out[name] = value
        return out

    def _effective_default(self, name: str) -> Any:
        field = type(self).model_fields[name]
        extra: dict[str, Any] = (field.json_schema_extra
                                 if isinstance(field.json_schema_extra, dict) else {})
        by: dict[str, dict[Any, Any]] = extra.get("defaults_by") or {}
        for other, by_value in by.items():
            value = getattr(self, other)
            if value in by_value:
                return by_value[value]
        return field.default

    def changed(self, **changes: Any) -> Any:
        """These options with some changed (checked like any others). An option that only
        had the default another gives it (``defaults_by``) follows that one's change."""
        data = self.to_dict()
        for name in type(self).model_fields:
            if name not in changes and name in data and self._follows(name) \
                    and data[name] == self._effective_default(name):
                del data[name]
        return type(self).from_dict({**data, **changes})

    def _follows(self, name: str) -> bool:
        extra = type(self).model_fields[name].json_schema_extra
        return isinstance(extra, dict) and bool(extra.get("defaults_by"))

    @classmethod
    def declared(cls) -> list[OptionInfo]:
        """Every option, as declared."""
        out = []
        for name, field in cls.model_fields.items():
            annotation = field.annotation
            optional = False
            args = get_args(annotation)
            if args and type(None) in args:
                optional = True
                rest = [a for a in args if a is not type(None)]
                annotation = rest[0] if len(rest) == 1 else annotation
            choices: list[Any] | None = None
            if get_origin(annotation) is Literal:
                kind, choices = "choice", list(get_args(annotation))
            elif annotation is bool:
                kind = "bool"
            elif annotation is int:
                kind = "int"
            else:
                kind = "text"
            minimum = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
            extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
            out.append(OptionInfo(
                name=name, type=kind, default=field.default, choices=choices,
                optional=optional, minimum=minimum, help=field.description or "",
                lobby=bool(extra.get("lobby", True)),
                defaults_by=extra.get("defaults_by") or {}))
        return out

    @classmethod
    def parse_value(cls, name: str, text: str) -> Any:
        """An option's value from command-line text (``turn_limit=12``,
        ``quickstart_destruction=false``), by its declared type."""
        info = next((o for o in cls.declared() if o["name"] == name), None)
        if info is None:
            raise ScenarioError(f"no option {name!r} (known: "
                                f"{', '.join(o['name'] for o in cls.declared())})")
        raw = text.strip()
        if info["optional"] and raw.lower() in ("none", ""):
            return None
        if info["type"] == "bool":
            if raw.lower() not in ("true", "false"):
                raise ScenarioError(f"option {name}: expected true or false, got {text!r}")
            return raw.lower() == "true"
        wanted: list[Any] = info["choices"] or []
        if info["type"] == "int" or any(isinstance(c, int) for c in wanted):
            try:
                number = int(raw)
            except ValueError:
                if info["type"] == "int":
                    raise ScenarioError(f"option {name}: expected a whole number, got "
                                        f"{text!r}") from None
            else:
                return number
        return raw


def options_model(ruleset: str) -> type[RulesOptions] | None:
    """The options model of a rule set (``None``: it has none declared this way)."""
    from .rulesets import get_ruleset

    model: type[RulesOptions] | None = getattr(get_ruleset(ruleset), "options_model", None)
    return model


def command_line_options(ruleset: str, pairs: Any) -> dict[str, Any]:
    """``--option NAME=VALUE`` pairs read by the options' declaration (checked together)."""
    if not pairs:
        return {}
    model = options_model(ruleset)
    if model is None:
        raise ScenarioError(f"--option: the {ruleset} rule set has no rules options")
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, value = str(pair).partition("=")
        if not eq or not name.strip():
            raise ScenarioError(f"--option {pair!r}: expected NAME=VALUE, e.g. "
                                f"fire_order=winner-first")
        out[name.strip()] = model.parse_value(name.strip(), value)
    model.from_dict(out, "--option")  # every value checked now, before any game
    return out


def options_table(ruleset: str) -> list[list[str]]:
    """The declared options of a rule set as rows: name, values, default, help."""
    model = options_model(ruleset)
    rows = []
    for o in model.declared() if model is not None else []:
        values = (" | ".join(str(c) for c in o["choices"]) if o["type"] == "choice"
                  else {"int": "a whole number", "bool": "true | false",
                        "text": "text"}[o["type"]])
        if o["optional"]:
            values += " | none"
        default = "none" if o["default"] is None else str(o["default"]).lower() \
            if isinstance(o["default"], bool) else str(o["default"])
        for other, by_value in o["defaults_by"].items():
            default += "".join(f"; {str(v).lower() if isinstance(v, bool) else v} with "
                               f"{other}={k}" for k, v in by_value.items())
        rows.append([o["name"], values, default, o["help"]])
    return rows

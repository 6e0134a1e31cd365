"""Shared model base and the identifier patterns of the catalog and the records."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

TOOL_NAME_PATTERN = r"^[a-zA-Z0-9_-]{1,64}$"
ID_PATTERN = r"^[a-z][a-z0-9_]*$"

StrictModelT = TypeVar("StrictModelT", bound=BaseModel)


class StrictModel(BaseModel):
    """A frozen pydantic model that rejects unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)


class SchemaError(ValueError):
    """Invalid data, with where it came from (a file, a record id, a line) and which field."""

    def __init__(self, where: str, problems: list[str]) -> None:
        self.where = where
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{where}: {len(problems)} problem(s)\n{lines}")


def describe_validation_error(err: ValidationError, prefix: str = "") -> list[str]:
    """Turn a pydantic error into 'field.path: message (got …)' lines a person can act on."""
    out: list[str] = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"])
        path = f"{prefix}.{loc}" if prefix and loc else (prefix or loc or "<root>")
        got = e.get("input")
        got_s = repr(got)
        if len(got_s) > 80:
            got_s = got_s[:77] + "..."
        msg = e["msg"]
        out.append(f"{path}: {msg}" + ("" if e["type"] == "missing" else f" (got {got_s})"))
    return out


def validate_or_raise(model: type[StrictModelT], data: Any, where: str, prefix: str = "") -> StrictModelT:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise SchemaError(where, describe_validation_error(err, prefix)) from None


_TEMPLATES: dict[type, tuple[dict[str, Any], frozenset[str], tuple[tuple[str, Any], ...]]] = {}


def _template(cls: type[BaseModel]) -> tuple[dict[str, Any], frozenset[str], tuple[tuple[str, Any], ...]]:
    """Per class: every field in declaration order with its static default (None where there is none),
    the required fields, and the fields with a default factory."""
    base: dict[str, Any] = {}
    required: list[str] = []
    factories: list[tuple[str, Any]] = []
    for name, f in cls.model_fields.items():
        if f.alias is not None or f.validation_alias is not None:
            raise TypeError(f"trusted(): {cls.__name__}.{name} has an alias")
        base[name] = None
        if f.default_factory is not None:
            factories.append((name, f.default_factory))
        elif f.is_required():
            required.append(name)
        else:
            if not isinstance(f.default, str | int | float | bool | type(None) | tuple | frozenset):
                raise TypeError(f"trusted(): {cls.__name__}.{name} has a mutable default")
            base[name] = f.default
    if cls.__pydantic_post_init__ or cls.model_config.get("extra") == "allow":
        raise TypeError(f"trusted(): {cls.__name__} needs pydantic's own model_construct")
    return base, frozenset(required), tuple(factories)


def _slot_setter(name: str) -> Any:
    """The setter of one of BaseModel's own slots (a C-level call), or object.__setattr__ bound to it."""
    d = BaseModel.__dict__.get(name)
    if d is not None and type(d).__name__ == "member_descriptor":
        return d.__set__
    return lambda m, v: object.__setattr__(m, name, v)


_new = object.__new__
_set_attr = object.__setattr__
_set_fields = _slot_setter("__pydantic_fields_set__")
_set_extra = _slot_setter("__pydantic_extra__")
_set_private = _slot_setter("__pydantic_private__")


def assemble(cls: type[StrictModelT], fields: dict[str, Any], fields_set: set[str]) -> StrictModelT:
    """An instance of ``cls`` holding ``fields`` as they are (every field, in declaration order): the
    last step of :func:`trusted`, for hot-path constructors that build the field dict themselves."""
    m = _new(cls)
    _set_attr(m, "__dict__", fields)
    _set_fields(m, fields_set)
    _set_extra(m, None)
    _set_private(m, None)
    return m


def trusted(cls: type[StrictModelT], values: dict[str, Any]) -> StrictModelT:
    """``cls.model_construct(**values)`` for data already checked by the caller, without pydantic's
    per-field alias and default walk (a prediction line or a mapped BFCL call is built this way on the
    hot path). Every required field must be in ``values``; defaults are filled per class."""
    t = _TEMPLATES.get(cls)
    if t is None:
        t = _TEMPLATES[cls] = _template(cls)
    base, required, factories = t
    d = base.copy()
    d.update(values)  # existing keys keep their place: the fields stay in declaration order
    if len(d) != len(base):
        raise TypeError(f"trusted(): unknown field(s) for {cls.__name__}: {sorted(set(d) - set(base))}")
    if not values.keys() >= required:
        missing = sorted(required - values.keys())
        raise TypeError(f"trusted(): {cls.__name__}.{missing[0]} is required")
    for name, factory in factories:
        if name not in values:
            d[name] = factory()
    return assemble(cls, d, set(values))

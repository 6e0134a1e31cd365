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

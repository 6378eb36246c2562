"""YAML reading that remembers line numbers, so data errors can name the line they come from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from adjudicator.errors import AdjudicatorError
from adjudicator.textio import read_text


class LineStr(str):
    """A string from a YAML file that knows its line."""

    line: int | None = None


class LineDict(dict):
    """A mapping from a YAML file that knows its line."""

    line: int | None = None


class LineList(list):
    """A sequence from a YAML file that knows its line."""

    line: int | None = None


class _LineLoader(yaml.SafeLoader):
    pass


def _scalar(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    value = loader.construct_scalar(node)
    resolved = loader.resolve(yaml.ScalarNode, value, (True, False))
    if node.tag == resolved and node.tag != "tag:yaml.org,2002:str":
        return loader.yaml_constructors[node.tag](loader, node)
    text = LineStr(value)
    text.line = node.start_mark.line + 1
    return text


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        result[key] = loader.construct_object(value_node, deep=True)
    return result


def _sequence(loader: yaml.SafeLoader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    return result


_LineLoader.add_constructor("tag:yaml.org,2002:str", _scalar)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def plain(value: Any) -> Any:
    """YAML line-tracking containers (and tuples) back to plain dicts, lists and strings."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def line_of(value: Any) -> int | None:
    """The line a value came from, when it came from a YAML file."""
    return getattr(value, "line", None)


def load_yaml_text(text: str, file: str | None = None) -> Any:
    """Parse YAML text, keeping line numbers; a syntax error names its line and column."""
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise AdjudicatorError(
            f"not valid YAML: {exc.problem}",
            file=file,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        ) from None
    except yaml.YAMLError as exc:
        raise AdjudicatorError(f"not valid YAML: {exc}", file=file) from None


def load_yaml_file(path: str | Path) -> Any:
    """Read and parse a YAML file; unreadable files and bad YAML give an AdjudicatorError."""
    return load_yaml_text(read_text(path), file=str(path))

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


class LineDict(dict[Any, Any]):
    """A mapping from a YAML file that knows its line."""

    line: int | None = None


class LineList(list[Any]):
    """A sequence from a YAML file that knows its line."""

    line: int | None = None


# libyaml's parser where PyYAML was built with it (the wheels are): the pure-Python one reads a few
# thousand lines a second and is quadratic in flow nesting; both give the same nodes and marks.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_SAFE_LOADER):  # type: ignore[misc, valid-type]
    pass


def _scalar(loader: Any, node: yaml.ScalarNode) -> Any:
    value = loader.construct_scalar(node)
    resolved = loader.resolve(yaml.ScalarNode, value, (True, False))
    if node.tag == resolved and node.tag != "tag:yaml.org,2002:str":
        return loader.yaml_constructors[node.tag](loader, node)
    text = LineStr(value)
    text.line = node.start_mark.line + 1
    return text


def _mapping(loader: Any, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        result[key] = loader.construct_object(value_node, deep=True)
    return result


def _sequence(loader: Any, node: yaml.SequenceNode) -> LineList:
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


MAX_DEPTH = 64  # nesting of mappings and sequences; a game file nests about 6 levels
MAX_NODES = 1_000_000  # values once every alias is expanded; a long game's file has a few thousand


def _check_expansion(node: yaml.Node, file: str | None) -> None:
    """Refuse a document whose aliases would expand past MAX_NODES values or MAX_DEPTH levels, or refer to
    themselves, before anything is built from it: a few lines of nested anchors can stand for billions of
    values, and whatever walks the data (checks, JSON, the next file written) would expand them.

    Each node is visited once (sizes and depths are kept by node), so this costs the document's length."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    if isinstance(node, yaml.ScalarNode):
        return
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    open_nodes: set[int] = set()
    while stack:
        item, done = stack.pop()
        key = id(item)
        children = [v for pair in item.value for v in pair] if isinstance(item, yaml.MappingNode) else item.value
        if done:
            open_nodes.discard(key)
            total, deepest = 1, 0
            for child in children:
                if isinstance(child, yaml.ScalarNode):
                    total += 1
                else:
                    total += size[id(child)]
                    deepest = max(deepest, depth[id(child)])
            size[key], depth[key] = total, deepest + 1
            mark = item.start_mark
            if total > MAX_NODES:
                raise AdjudicatorError(f"the YAML expands to more than {MAX_NODES:,} values (anchors and aliases "
                                       "repeated inside each other); write the data out", file=file,
                                       line=mark.line + 1, column=mark.column + 1)
            if deepest + 1 > MAX_DEPTH:
                raise AdjudicatorError(f"the YAML nests deeper than {MAX_DEPTH} levels", file=file,
                                       line=mark.line + 1, column=mark.column + 1)
            continue
        if key in size:
            continue  # an alias to a node already measured
        if key in open_nodes:
            mark = item.start_mark
            raise AdjudicatorError("an alias refers to the node that contains it (a value inside itself)", file=file,
                                   line=mark.line + 1, column=mark.column + 1)
        open_nodes.add(key)
        stack.append((item, True))
        stack.extend((c, False) for c in children if not isinstance(c, yaml.ScalarNode) and id(c) not in size)


def load_yaml_text(text: str, file: str | None = None) -> Any:
    """Parse YAML text, keeping line numbers; a syntax error names its line and column.

    Aliases are expanded only within bounds, and nesting is bounded (see `_check_expansion`)."""
    loader = _LineLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expansion(node, file)
        return loader.construct_document(node)
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
    except RecursionError:  # the composer recurses once per level: deeper than Python's stack
        raise AdjudicatorError(f"the YAML nests deeper than {MAX_DEPTH} levels", file=file) from None
    finally:
        loader.dispose()


def load_yaml_file(path: str | Path) -> Any:
    """Read and parse a YAML file; unreadable files and bad YAML give an AdjudicatorError."""
    return load_yaml_text(read_text(path), file=str(path))

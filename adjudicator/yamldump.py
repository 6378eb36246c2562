"""YAML written for people: short lists of names on one line (`Russia: [A Arc, F Okh]`), the rest in blocks."""

from __future__ import annotations

from typing import Any

import yaml


class _Dumper(yaml.SafeDumper):
    """Flow style for short lists and mappings of scalars, block style for everything else."""


def _list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.Node:
    flow = all(isinstance(v, (str, int)) for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


def _dict(dumper: yaml.SafeDumper, value: dict[Any, Any]) -> yaml.Node:
    flow = all(isinstance(v, (str, int)) for v in value.values()) and len(str(value)) < 60
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=flow)


_Dumper.add_representer(list, _list)
_Dumper.add_representer(dict, _dict)


def dump_yaml(data: Any) -> str:
    """Plain data as readable YAML, keys in their given order."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)

"""The one error of hosted games: the kit's worded refusal (`adjudicator.refusals.Refused`: a kind, a short title,
the detail and extension members), under the name the hosted modules raise it by; the API answers it by its kind."""

from __future__ import annotations

from adjudicator.refusals import Refused as HostedError

__all__ = ["HostedError"]

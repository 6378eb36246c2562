"""A graph-based Diplomacy-variant adjudicator.

The flow, in the order a reader meets the modules: board (variant data as graphs) -> orders (text ->
parsed orders -> validated orders) -> judge (resolution -> results) -> game (next state) -> cases / cli.
"""

__version__ = "0.1.0"

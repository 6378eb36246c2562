"""The picture kit every game draws with: an SVG document in layers with element ids (`svg.py`), text as glyph
outlines (`text.py`), colours told apart (`palette.py`), shared styles (`style.py`), pieces and the legend
(`pieces.py`, `legend.py`), and the PNG rasterised from the SVG (`raster.py`).

Each game draws its own picture (`GameRules.picture`, a `svg.Picture` of layers) and `GameRules.render` writes it
out or rasterises it; Diplomacy's is `adjudicator/games/diplomacy/picture/`.
"""

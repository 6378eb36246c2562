"""The field's game records read and written: the `diplomacy` package's saved game (`mila`) and FAIR's game JSON
(`fair`), each phase a position of this project's, the orders as recorded, and every field the project does not use
kept as it was."""

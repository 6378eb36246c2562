"""`python -m adjudicator` runs the command-line tool."""

from adjudicator.cli import main

main()

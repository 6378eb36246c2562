"""The tests, one folder for each part of the code they test (kit/, api/, hosted/, page/, games/<game>/, with
Diplomacy's orders/, judge/, cases/, picture/ and importers/ under games/diplomacy/), benchmarks/ for the
benchmark scripts' own tests and project/ for the README and the packaging. Each folder is a package, so two
files may share a name; helpers are imported by their full name (`from tests.helpers import ROOT`), fixtures
come from the conftest.py files."""

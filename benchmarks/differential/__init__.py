"""The differential run of benchmarks/compare_peer.py against the `diplomacy` package (the peer), in parts: the
phase both engines get (phase_input), the random orders (random_orders), the timed runs and the games played
(timed_runs), the rule differences and peer bugs emulated (emulations) and the differences classified with them
(classifier), memory and the time split into parts (costs), case files (cases) and the report (report)."""

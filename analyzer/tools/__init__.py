"""The engine's tools: `clix compile`, `clix selfcheck`, conformance runs and `clix scenario run`."""

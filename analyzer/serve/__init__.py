"""`clix serve`: a local web page over the library, the runner and the result store (issue 41).

The app (`app.create_app`) renders Jinja2 templates with a vendored htmx; every check it makes is the command line's
(the army-building rules of `engine.horrorclix.legality`, the option checks of `analyzer.common.checks`) and every
duel it starts is `clix duel`'s `run_duel`, played in a worker process (`worker`) that a cancel ends."""

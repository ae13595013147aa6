"""The error every user mistake becomes: printed as one line by the CLI, exit code 2."""


class ClixError(Exception):
    """A mistake the user can fix; the message says what is wrong and how to fix it."""

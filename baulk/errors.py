"""Errors that the command line reports as one line and a non-zero exit."""


class UserError(Exception):
    """Bad input from the user: a missing file, a corrupt video, an impossible log.

    Attributes:
        exit_code: Process exit status to use (2 for bad input by default).
    """

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code

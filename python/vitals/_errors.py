"""The exceptions of the package: one per failure status of the C interface."""

from __future__ import annotations


class VitalsError(Exception):
    """A call into the Vitals library failed; the message is the library's (file and place, or argument).

    Raised as is for the library's internal errors (status 4); the subclasses below name the other
    statuses.
    """


class InputError(VitalsError):
    """A file that cannot be read, is malformed, or holds nothing to do (status 1)."""


class ArgumentError(VitalsError, ValueError):
    """A bad argument or option: a NaN or negative rate, an unknown option, an array of the wrong shape
    (status 2). Also a ``ValueError``."""


class OutputError(VitalsError):
    """A result that cannot be written or encoded (status 3)."""


BY_STATUS: dict[int, type[VitalsError]] = {1: InputError, 2: ArgumentError, 3: OutputError}

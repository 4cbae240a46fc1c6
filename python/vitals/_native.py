"""Loading libVitalsC and calling it: the declarations, statuses, returned buffers and input arrays.

The library is ``vitals/_lib/libVitalsC.so`` (copied there at install), or the file the environment
variable ``VITALS_LIBRARY`` names when it is set at import. It is loaded with ``ctypes.CDLL``, so
every foreign call releases the GIL: calls on different arrays or files from several threads run in
parallel.

Memory rules:

- Input arrays are passed without a copy when they already are C-contiguous ``float32`` (samples)
  or ``int64`` (beat indices); anything else (``float64``, a strided view, a list) is converted
  once, into a temporary the call reads. The library never keeps a pointer past the call.
- Every buffer and string the library returns is copied into a Python object (NumPy array,
  ``bytes``, ``str``) and freed with ``vitals_free`` in a ``finally`` block, also when the
  conversion fails.
"""

from __future__ import annotations

import ctypes
import json
import os
import pathlib
from collections.abc import Mapping, Sequence
from ctypes import POINTER, byref, c_char_p, c_double, c_int32, c_int64, c_void_p
from typing import Any, NoReturn

import numpy as np

from ._errors import BY_STATUS, ArgumentError, VitalsError

LIBRARY_VARIABLE = "VITALS_LIBRARY"
_FLOAT32 = np.dtype(np.float32)
ABI_VERSION = 1

_OUT = POINTER(c_void_p)
_COUNT = POINTER(c_int64)
# (restype, argtypes) of every function of vitals.h. Buffers are declared `void *` so that a NumPy
# array's address (an int) or a ctypes array passes without a conversion object.
_SIGNATURES: dict[str, tuple[Any, list[Any]]] = {
    "vitals_free": (None, [c_void_p]),
    "vitals_version": (c_char_p, []),
    "vitals_abi_version": (c_int32, []),
    "vitals_build_info": (c_char_p, []),
    "vitals_recording_open": (c_int32, [c_char_p, c_void_p, c_int32, _OUT, _OUT]),
    "vitals_recording_close": (None, [c_void_p]),
    "vitals_recording_describe": (c_int32, [c_void_p, _OUT, _OUT]),
    "vitals_recording_channel_count": (c_int32, [c_void_p]),
    "vitals_recording_read": (c_int32, [c_void_p, c_void_p, c_int64, _COUNT, _OUT]),
    "vitals_annotations_read": (c_int32, [c_char_p, c_char_p, _OUT, _OUT]),
    # Out-parameters as `void *`: vitals.ecg_peaks and ecg_beats pass the addresses of one ctypes structure's
    # fields.
    "vitals_ecg_peaks": (c_int32, [c_void_p, c_int64, c_double, c_int32, c_void_p, c_void_p, c_void_p]),
    "vitals_ecg_beats": (c_int32, [c_void_p, c_int32, c_int64, c_double, c_void_p, c_void_p, c_void_p, c_void_p]),
    "vitals_recording_beats": (c_int32, [c_char_p, c_void_p, c_int32, _OUT, _OUT]),
    "vitals_hrv": (c_int32, [c_void_p, c_int64, c_double, c_char_p, _OUT, _OUT]),
    "vitals_hrv_with_options": (c_int32, [c_void_p, c_int64, c_double, c_char_p, c_void_p, c_int32, _OUT, _OUT]),
    "vitals_ppg_rate": (
        c_int32,
        [c_void_p, c_int32, c_void_p, c_int32, c_int64, c_double, c_double, c_double, _OUT, _OUT],
    ),
    "vitals_steps": (
        c_int32,
        [c_void_p, c_void_p, c_void_p, c_int64, c_double, c_char_p, c_char_p, _OUT, _COUNT, _OUT, _OUT],
    ),
    "vitals_analyze": (c_int32, [c_char_p, c_void_p, c_int32, _OUT, _OUT, _OUT]),
    "vitals_stats_partial": (c_int32, [c_void_p, c_int32, c_void_p, c_int32, _OUT, _COUNT, _OUT]),
    "vitals_stats_merge": (c_int32, [c_void_p, c_void_p, c_int32, _OUT, _COUNT, _OUT]),
    "vitals_stats_table": (c_int32, [c_void_p, c_int64, c_char_p, _OUT, _OUT]),
}


def library_path() -> pathlib.Path:
    """The library this process loads: ``$VITALS_LIBRARY`` when set, else the installed copy."""
    configured = os.environ.get(LIBRARY_VARIABLE)
    if configured:
        return pathlib.Path(configured)
    return pathlib.Path(__file__).with_name("_lib") / "libVitalsC.so"


def _load() -> ctypes.CDLL:
    path = library_path()
    try:
        library = ctypes.CDLL(str(path))
    except OSError as error:
        raise ImportError(f"vitals: cannot load the Vitals library {path}: {error}") from error
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes
    abi = library.vitals_abi_version()
    if abi != ABI_VERSION:
        raise ImportError(f"vitals: {path} implements interface version {abi}, this package needs {ABI_VERSION}")
    return library


lib = _load()


def call(function: Any, *arguments: Any) -> None:
    """Calls a fallible `function` with `arguments` and its trailing error out-parameter; a failure
    status raises its exception with the library's message (which is then freed)."""
    error = c_void_p()
    status = function(*arguments, byref(error))
    if status:
        raise_failure(status, error.value)


def raise_failure(status: int, error: int | None) -> NoReturn:
    """Raises the exception of the failure `status`, with the library's message at address `error`
    (which is freed here)."""
    try:
        message = ctypes.string_at(error).decode("utf-8", "replace") if error else ""
    finally:
        if error:
            lib.vitals_free(error)
    raise BY_STATUS.get(status, VitalsError)(message or f"the Vitals library failed with status {status}")


class returned:  # noqa: N801 (used as a context manager, like open)
    """`count` out-parameters for returned buffers, each freed with ``vitals_free`` when the block
    ends (a class rather than a generator: this sits on every call's path)."""

    __slots__ = ("pointers",)

    def __init__(self, count: int) -> None:
        self.pointers = [c_void_p() for _ in range(count)]

    def __enter__(self) -> list[c_void_p]:
        return self.pointers

    def __exit__(self, *_: object) -> None:
        for pointer in self.pointers:
            if pointer.value:
                lib.vitals_free(pointer)


def text(pointer: c_void_p) -> str:
    """The NUL-terminated UTF-8 string a returned pointer holds ("" for NULL); not freed here."""
    return ctypes.string_at(pointer.value).decode("utf-8") if pointer.value else ""


def json_value(pointer: c_void_p) -> Any:
    """The JSON a returned string holds, decoded (key order kept); not freed here."""
    return json.loads(text(pointer))


def data(pointer: int | None, length: int) -> bytes:
    """`length` bytes of a returned buffer at address `pointer` (b"" for NULL); not freed here."""
    return ctypes.string_at(pointer, length) if pointer and length else b""


def int64_array(pointer: int | None, count: int) -> np.ndarray:
    """A writable NumPy copy of `count` int64 values of a returned buffer at address `pointer`; not
    freed here."""
    array = np.empty(count if pointer else 0, dtype=np.int64)
    if pointer and count:
        ctypes.memmove(address(array), pointer, count * 8)
    return array


def float32_vector(values: Any, name: str) -> np.ndarray:
    """`values` as a 1-D C-contiguous float32 array: the array itself when it already is one, else a
    converted copy. Raises ArgumentError for any other number of dimensions."""
    if type(values) is np.ndarray and values.dtype is _FLOAT32 and values.ndim == 1 and values.flags.c_contiguous:
        return values
    array = np.asarray(values)
    if array.ndim != 1:
        raise ArgumentError(f"{name}: expected a 1-D array of samples, got shape {array.shape}")
    return np.ascontiguousarray(array, dtype=np.float32)


def centered_float32_vector(values: Any, name: str) -> np.ndarray:
    """As ``float32_vector``, but an array of another type is first moved by its first finite value
    in float64, as the QRS detector moves every lead (so that a float64 ECG on a large offset keeps
    its detail instead of losing it to float32's 24 bits)."""
    if type(values) is np.ndarray and values.dtype is _FLOAT32:
        return float32_vector(values, name)
    array = np.asarray(values)
    if array.ndim == 1 and array.dtype != _FLOAT32 and np.issubdtype(array.dtype, np.number):
        wide = array.astype(np.float64)
        finite = np.flatnonzero(np.isfinite(wide))
        if finite.size:
            wide -= wide[finite[0]]
        array = wide
    return float32_vector(array, name)


def int64_vector(values: Any, name: str) -> np.ndarray:
    """`values` as a 1-D C-contiguous int64 array (no copy when it already is one)."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ArgumentError(f"{name}: expected a 1-D array of sample indices, got shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ArgumentError(f"{name}: expected integer sample indices, got {array.dtype}")
    return np.ascontiguousarray(array, dtype=np.int64)


def channels(values: Any, name: str, centered: bool = False) -> list[np.ndarray]:
    """Channels of equal length as float32 vectors: a 1-D array or Series (one channel), a 2-D array
    (one channel per row; more rows than columns is refused, as it is most likely samples by channels),
    a DataFrame (one per column), a mapping name → 1-D array (such as ``Recording.signals``) or a list or
    tuple of 1-D arrays. With `centered`, as ``centered_float32_vector``."""
    if hasattr(values, "columns"):
        rows = [values[column].to_numpy() for column in values.columns]
    elif isinstance(values, Mapping):
        rows = list(values.values())
    elif isinstance(values, (list, tuple)) and values and np.ndim(values[0]) > 0:
        rows = list(values)
    else:
        array = np.asarray(values)
        if array.ndim == 2 and array.shape[0] > array.shape[1]:
            # (samples, channels), as DataFrame.to_numpy() and np.column_stack give, would be read as
            # thousands of channels of a few samples each.
            raise ArgumentError(
                f"{name}: a 2-D array holds one channel per row, and this one has {array.shape[0]} rows of "
                f"{array.shape[1]} samples; for samples in rows and channels in columns pass its transpose (.T)"
            )
        rows = list(array) if array.ndim == 2 else [array]
    convert = centered_float32_vector if centered else float32_vector
    vectors = [convert(row, f"{name}[{index}]") for index, row in enumerate(rows)]
    if not vectors:
        raise ArgumentError(f"{name}: no channel given")
    same_length(vectors, name)
    return vectors


def positive_int32(value: Any, name: str) -> int:
    """`value` as an int from 1 to 2**31 - 1 (a number of threads); ArgumentError for anything else."""
    if (type(value) is int or isinstance(value, np.integer)) and 0 < value < 2**31:
        return int(value)
    raise ArgumentError(f"{name}: expected a whole number from 1 to 2147483647, got {value!r}")


def boolean(value: Any, name: str) -> bool:
    """`value` (a bool or a NumPy bool) as a bool; ArgumentError naming `name` for anything else (1, "no")."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ArgumentError(f"{name}: expected True or False, got {value!r}")


def same_length(vectors: Sequence[np.ndarray], name: str) -> int:
    """The common length of `vectors`; ArgumentError when they differ."""
    lengths = {len(vector) for vector in vectors}
    if len(lengths) > 1:
        raise ArgumentError(f"{name}: the channels have different lengths {sorted(lengths)}")
    return lengths.pop()


def address(array: np.ndarray) -> int:
    """The address of `array`'s first element (which the caller keeps alive during the call):
    through the buffer protocol, about 1 µs, else NumPy's ``ctypes.data`` (read-only or empty
    arrays), about 3 µs."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError):
        return array.ctypes.data


def pointers(vectors: Sequence[np.ndarray]) -> Any:
    """A C array of the data pointers of `vectors` (which the caller keeps alive during the call);
    for one vector, a reference to a single pointer (half the cost, on every one-lead call)."""
    if len(vectors) == 1:
        return byref(c_void_p(address(vectors[0])))
    return (c_void_p * len(vectors))(*[address(vector) for vector in vectors])


def strings(words: Sequence[str]) -> tuple[ctypes.Array | None, int]:
    """A C array of NUL-terminated UTF-8 strings and its length (None and 0 when empty)."""
    if not words:
        return None, 0
    return (c_char_p * len(words))(*(str(word).encode("utf-8") for word in words)), len(words)


def paths(files: Sequence[Any]) -> tuple[ctypes.Array | None, int]:
    """A C array of file paths (str, bytes or path objects) as the library takes them
    (``encoded_path``), and its length (None and 0 when empty)."""
    if not files:
        return None, 0
    return (c_char_p * len(files))(*(encoded_path(file) for file in files)), len(files)


def byte_buffers(buffers: Sequence[bytes]) -> ctypes.Array:
    """A C array of pointers to the contents of `buffers` (not copied; the array keeps them alive)."""
    return (c_char_p * len(buffers))(*buffers)


def option_words(options: Mapping[str, Any]) -> list[str]:
    """Keyword options as the command line's words: ``channel="MLII"`` → ``--channel=MLII``,
    ``rate=250`` → ``--rate=250``, ``no_header=True`` → ``--no-header`` (False and None are left
    out), a list or tuple → its items joined by commas; underscores become dashes. The ``=`` form
    keeps a value starting with "-" (``rate=-5``) a value, so the library validates it."""
    words: list[str] = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            words.append(flag)
            continue
        if isinstance(value, (list, tuple)):
            value = ",".join(str(item) for item in value)
        words.append(f"{flag}={os.fspath(value) if isinstance(value, os.PathLike) else value}")
    return words


def number(value: Any, name: str) -> float:
    """`value` (an int, a float, a NumPy number or 0-d array, a Decimal: anything ``float()`` takes but a
    string or a bool) as a float; ArgumentError naming `name` for anything else (the library checks the
    range)."""
    if type(value) is float or type(value) is int:
        return float(value)
    if not isinstance(value, (str, bytes, bool, np.bool_)):
        try:
            return float(value)
        except (TypeError, ValueError):
            pass
    raise ArgumentError(f"{name}: expected a number, got {value!r}")


def encoded_path(path: Any) -> bytes:
    """A file path as the library takes it (UTF-8 bytes)."""
    return os.fsencode(path)

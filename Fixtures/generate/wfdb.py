"""WFDB reference vectors for VitalsIO's WFDB reader and writers.

Writes into Fixtures/wfdb/:
- records/fmt*.{hea,dat}: small synthetic records in every storage format the reader supports,
  written by wfdb-python's `wrsamp` (plus hand-built variants for byte offsets, skew, samples per
  frame and CRLF line ends), and `digests-fixtures.json`: how `wfdb.rdrecord` reads each of them.
- `digests-shared.json`: how `wfdb.rdrecord` / `wfdb.rdann` read every record in
  ../shared/data/mitdb and ../shared/data/wfdb-formats (computed summaries only: lengths, sums,
  SHA-256 of the digital samples, a few values; no data is copied).
- annotations/written.atr + `annotations-written.json`: an annotation set written by `wfdb.wrann`
  (SKIP, NUM, SUB, CHN, AUX), for a byte-exact test of the project's annotation writer.

Run from the package root: `python3 Fixtures/generate/wfdb.py` (pinned versions in
requirements.txt). Deterministic: a fixed seed, no time stamps.
"""

import hashlib
import json
import os
import shutil
import sys

# This script is itself named wfdb.py: keep its directory off the path so `import wfdb` finds the
# pinned package.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import numpy as np  # noqa: E402
import wfdb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Fixtures", "wfdb")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data")
RECORDS = os.path.join(OUT, "records")

# Digital range and invalid marker per format (signal(5); wfdb-python's _digi_nan).
FORMATS = {
    "8": (-128, 127, None),
    "16": (-32768, 32767, -32768),
    "24": (-(2**23), 2**23 - 1, -(2**23)),
    "32": (-(2**31), 2**31 - 1, -(2**31)),
    "61": (-32768, 32767, -32768),
    "80": (-128, 127, -128),
    "160": (-32768, 32767, -32768),
    "212": (-2048, 2047, -2048),
    "310": (-512, 511, -512),
    "311": (-512, 511, -512),
}


def sha256_int32(values):
    return hashlib.sha256(np.asarray(values, dtype="<i4").tobytes()).hexdigest()


def header_digest(header):
    return {
        "fs": float(header.fs),
        "counter_freq": None if header.counter_freq is None else float(header.counter_freq),
        "base_counter": None if header.base_counter is None else float(header.base_counter),
        "sig_len": int(header.sig_len) if header.sig_len else None,
        "base_time": None if header.base_time is None else header.base_time.isoformat(),
        "base_date": None if header.base_date is None else header.base_date.isoformat(),
        "comments": list(header.comments),
        "signals": [
            {
                "file_name": header.file_name[i],
                "fmt": int(header.fmt[i]),
                "samps_per_frame": int(header.samps_per_frame[i] or 1),
                "skew": int(header.skew[i] or 0),
                "byte_offset": int(header.byte_offset[i] or 0),
                "adc_gain": float(header.adc_gain[i]),
                "baseline": int(header.baseline[i]),
                "units": header.units[i],
                "adc_res": int(header.adc_res[i]),
                "adc_zero": int(header.adc_zero[i]),
                "init_value": int(header.init_value[i]),
                "checksum": int(header.checksum[i]),
                "block_size": int(header.block_size[i]),
                "sig_name": header.sig_name[i],
            }
            for i in range(header.n_sig)
        ],
    }


def record_digest(path):
    """What rdrecord gives for `path`: digital samples at full rate (skew applied) and physical
    values at the frame rate (frames averaged)."""
    try:
        expanded = wfdb.rdrecord(path, physical=False, smooth_frames=False).e_d_signal
    except ValueError:
        # wfdb 4.3.0 cannot expand big-endian (format 61) records: its dtype check parses
        # '>i2'. With one sample per frame the smoothed digital signal is the same thing.
        smoothed = wfdb.rdrecord(path, physical=False, smooth_frames=True)
        assert all(n == 1 for n in smoothed.samps_per_frame)
        expanded = [smoothed.d_signal[:, i] for i in range(smoothed.n_sig)]
    physical = wfdb.rdrecord(path, physical=True, smooth_frames=True)
    frames = physical.p_signal.shape[0]
    probe = sorted({0, 1, 2, frames // 3, frames // 2, frames - 2, frames - 1} & set(range(frames)))
    signals = []
    for i, samples in enumerate(expanded):
        samples = np.asarray(samples, dtype=np.int64)
        column = physical.p_signal[:, i]
        signals.append(
            {
                "length": int(samples.size),
                "sum": int(samples.sum()),
                "sha256": sha256_int32(samples),
                # Σ (i + 1)·sample mod 2^64: order-sensitive and cheap to check in debug builds.
                "weighted_sum": int(
                    (np.arange(1, samples.size + 1, dtype=np.uint64) * samples.astype(np.uint64)).sum(
                        dtype=np.uint64
                    )
                ),
                "first": [int(v) for v in samples[:8]],
                "physical_indices": probe,
                "physical_values": [None if np.isnan(column[j]) else float(column[j]) for j in probe],
                "physical_nan_count": int(np.isnan(column).sum()),
                "physical_sum": float(np.nansum(column)),
            }
        )
    return {"frames": frames, "signals": signals}


def annotation_digest(path, extension):
    ann = wfdb.rdann(path, extension)
    rows = [
        f"{int(ann.sample[i])},{ann.symbol[i]},{int(ann.subtype[i])},{int(ann.chan[i])},"
        f"{int(ann.num[i])},{ann.aux_note[i]}\n"
        for i in range(len(ann.sample))
    ]
    return {
        "extension": extension,
        "count": len(rows),
        "sha256": hashlib.sha256("".join(rows).encode("utf-8")).hexdigest(),
        "first": [row.rstrip("\n") for row in rows[:5]],
    }


def encode(fmt, d):
    """Bytes of the frames `d` (frames × signals, one sample per frame) in storage format `fmt`
    (signal(5)); wfdb-python writes only some formats, so every format is packed here."""
    flat = d.reshape(-1).astype(np.int64)
    if fmt == "8":
        previous = np.concatenate([d[:1], d[:-1]])
        previous[0] = d[0]
        return (d - previous).reshape(-1).astype("i1").tobytes()
    if fmt in ("16", "61", "32"):
        return flat.astype({"16": "<i2", "61": ">i2", "32": "<i4"}[fmt]).tobytes()
    if fmt == "80":
        return (flat + 128).astype("u1").tobytes()
    if fmt == "160":
        return (flat + 32768).astype("<u2").tobytes()
    if fmt == "24":
        return b"".join(int(v & 0xFFFFFF).to_bytes(3, "little") for v in flat)
    size = 2 if fmt == "212" else 3
    padded = np.concatenate([flat, np.zeros(-len(flat) % size, dtype=np.int64)]).reshape(-1, size)
    out = bytearray()
    for group in padded:
        if fmt == "212":
            a, b = (int(v) & 0xFFF for v in group)
            out += bytes([a & 0xFF, (a >> 8) | ((b >> 4) & 0xF0), b & 0xFF])
        elif fmt == "310":
            a, b, c = (int(v) & 0x3FF for v in group)
            out += ((a << 1) | ((c & 0x1F) << 11)).to_bytes(2, "little")
            out += ((b << 1) | ((c >> 5) << 11)).to_bytes(2, "little")
        else:
            a, b, c = (int(v) & 0x3FF for v in group)
            out += (a | (b << 10) | (c << 20)).to_bytes(4, "little")
    return bytes(out)


def write_fixture_records(rng):
    shutil.rmtree(RECORDS, ignore_errors=True)
    os.makedirs(RECORDS)
    names = []
    frames = 257  # odd: packed formats end in a partial group
    for fmt, (low, high, invalid) in FORMATS.items():
        name = f"fmt{fmt}"
        span = min(high, 3000) if fmt in ("24", "32") else high
        t = np.arange(frames)
        a = np.round(0.8 * span * np.sin(2 * np.pi * t / 50)).astype(np.int64)
        b = rng.integers(max(low + 1, -span), span, frames, endpoint=True)
        a[[0, -1]] = [low + (invalid is not None), high]
        if fmt == "8":
            # Differences must fit a signed byte: a slow ramp around the initial value.
            a = np.cumsum(rng.integers(-100, 100, frames, endpoint=True))
            b = np.cumsum(rng.integers(-3, 3, frames, endpoint=True)) + 500
        elif invalid is not None:
            b[[5, 100]] = invalid
        d = np.stack([a, b], axis=1).astype(np.int64)
        gains = ["200", "12.5(-7)/mmHg"] if fmt != "8" else ["100", "1/mmHg"]
        with open(os.path.join(RECORDS, f"{name}.dat"), "wb") as f:
            f.write(encode(fmt, d))
        lines = [f"{name} 2 360 {frames}"]
        for i, (gain, label) in enumerate(zip(gains, ["ECG", "RESP"])):
            checksum = int(np.int16(np.uint16(d[:, i].sum() & 0xFFFF)))
            lines.append(f"{name}.dat {fmt} {gain} 12 0 {d[0, i]} {checksum} 0 {label}")
        with open(os.path.join(RECORDS, f"{name}.hea"), "w") as f:
            f.write("\n".join(lines) + "\n")
        names.append(name)

    # Samples per frame, skew and a byte offset, in format 16: a hand-built file with a 10-byte
    # preamble holding signal 0 at 2 samples per frame and signal 1 (skewed by 3 frames) at 1.
    frames = 40
    body = np.zeros((frames, 3), dtype="<i2")
    body[:, 0] = np.arange(frames) * 10
    body[:, 1] = np.arange(frames) * 10 + 5
    body[:, 2] = 1000 - np.arange(frames) * 7
    body[7, 2] = -32768
    with open(os.path.join(RECORDS, "layout.dat"), "wb") as f:
        f.write(b"PREAMBLE!\n")
        f.write(body.tobytes())
    with open(os.path.join(RECORDS, "layout.hea"), "wb") as f:
        f.write(
            b"layout 2 100/1000(12) 40 10:20:30.5 02/03/2021\r\n"
            b"# CRLF line ends, comments between lines\r\n"
            b"layout.dat 16x2+10 400(3)/uV 16 0 0 0 0 sig zero\r\n"
            b"\r\n"
            b"layout.dat 16:3+10 0 16 5 0 0 0\r\n"
            b"#age: 42\r\n"
        )
    names.append("layout")

    # Several files, mixed formats, and a header without a length (taken from the data file).
    wfdb.wrsamp(
        "mixed",
        fs=250,
        units=["mV", "NU"],
        sig_name=["II", "PLETH"],
        d_signal=np.stack([np.arange(30) * 3 - 40, 2 * np.arange(30)], axis=1).astype(np.int64),
        fmt=["80", "16"],
        adc_gain=[100.0, 50.0],
        baseline=[0, 10],
        write_dir=RECORDS,
    )
    names.append("mixed")
    return names


def write_multisegment_records():
    """Hand-written multi-segment records over two format-16 segments: a variable layout (layout
    segment, a segment lacking signal II, a null segment) and a fixed layout."""
    np.arange(20, dtype="<i2").tofile(os.path.join(RECORDS, "seg1.dat"))
    (np.arange(5, dtype="<i2") * 7).tofile(os.path.join(RECORDS, "seg2.dat"))
    files = {
        "seg1.hea": "seg1 2 100 10\nseg1.dat 16 200/mV 16 0 0 0 0 II\nseg1.dat 16 100/mV 16 0 0 0 0 V\n",
        "seg2.hea": "seg2 1 100 5\nseg2.dat 16 50(3)/mV 16 0 0 0 0 V\n",
        "multi_layout.hea": "multi_layout 2 100 0\n~ 16 200/mV 16 0 0 0 0 II\n~ 16 100/mV 16 0 0 0 0 V\n",
        "multi.hea": "multi/4 2 100 20\nmulti_layout 0\nseg1 10\n~ 5\nseg2 5\n",
        "fixed.hea": "fixed/2 2 100 15\nseg1 10\nseg1 5\n",
    }
    for name, text in files.items():
        with open(os.path.join(RECORDS, name), "w") as f:
            f.write(text)
    digests = {}
    for name in ("multi", "fixed"):
        record = wfdb.rdrecord(os.path.join(RECORDS, name))
        digests[name] = {
            "sig_name": list(record.sig_name),
            "units": list(record.units),
            "values": [[None if np.isnan(v) else float(v) for v in record.p_signal[:, i]] for i in range(record.n_sig)],
        }
    return digests


def write_annotations():
    directory = os.path.join(OUT, "annotations")
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    sample = [5, 6, 1200, 1500, 200_000, 200_100, 5_000_000, 5_000_001]
    symbol = ["N", "V", "+", "N", "~", "A", "+", "|"]
    subtype = [0, 0, 0, 3, -2, 0, 0, 1]
    chan = [0, 0, 1, 1, 0, 2, 2, 2]
    num = [0, 0, 0, 5, 5, 127, 0, 0]
    aux = ["", "", "(AFIB", "", "noise", "", "(N", "odd"]
    wfdb.wrann(
        "written",
        "atr",
        np.array(sample),
        symbol=symbol,
        subtype=np.array(subtype),
        chan=np.array(chan),
        num=np.array(num),
        aux_note=aux,
        write_dir=directory,
    )
    back = wfdb.rdann(os.path.join(directory, "written"), "atr")
    assert list(back.sample) == sample and list(back.symbol) == symbol
    annotations = [
        {"sample": s, "symbol": y, "subtype": u, "chan": c, "num": n, "aux": a}
        for s, y, u, c, n, a in zip(sample, symbol, subtype, chan, num, aux)
    ]
    return {"file": "annotations/written.atr", "annotations": annotations}


def main():
    rng = np.random.default_rng(20261121)
    os.makedirs(OUT, exist_ok=True)
    names = write_fixture_records(rng)
    fixtures = {
        name: {
            "header": header_digest(wfdb.rdheader(os.path.join(RECORDS, name))),
            "record": record_digest(os.path.join(RECORDS, name)),
        }
        for name in names
    }
    with open(os.path.join(OUT, "digests-fixtures.json"), "w") as f:
        json.dump(fixtures, f, indent=1, sort_keys=True)
    with open(os.path.join(OUT, "digests-multisegment.json"), "w") as f:
        json.dump(write_multisegment_records(), f, indent=1, sort_keys=True)

    with open(os.path.join(OUT, "annotations-written.json"), "w") as f:
        json.dump(write_annotations(), f, indent=1, sort_keys=True)

    if not os.path.isdir(SHARED):
        print(f"{SHARED} absent: digests-shared.json left as it is")
        return
    shared = {}
    for folder in ("mitdb", "wfdb-formats"):
        directory = os.path.join(SHARED, folder)
        for file in sorted(os.listdir(directory)):
            if not file.endswith(".hea"):
                continue
            record = os.path.join(directory, file[:-4])
            entry = {"header": header_digest(wfdb.rdheader(record))}
            try:
                entry["record"] = record_digest(record)
            except FileNotFoundError as error:
                entry["unreadable"] = f"missing file {os.path.basename(error.filename)}"
            entry["annotations"] = [
                annotation_digest(record, other.rsplit(".", 1)[1])
                for other in sorted(os.listdir(directory))
                if other.startswith(file[:-4] + ".") and other.rsplit(".", 1)[1] in ("atr", "qrs", "gqrsl")
            ]
            shared[f"{folder}/{file[:-4]}"] = entry
    with open(os.path.join(OUT, "digests-shared.json"), "w") as f:
        json.dump(shared, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()

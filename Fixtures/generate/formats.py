#!/usr/bin/env python3
"""Writes the small synthetic EDF/EDF+, CSV/TSV and Apple Health ECG files under Fixtures/io/,
with JSON expectations computed here (numpy float64), and JSON digests of ../shared/data/edf as
pyedflib reads it (plus the QRS sample positions decoded from its .edf.qrs MIT annotation files).

Run from the package root: python3 Fixtures/generate/formats.py (pinned packages in
requirements.txt). Deterministic: fixed seeds, fixed dates.
"""
import json
import math
import os
import struct

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Fixtures", "io")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data")


def write(rel, data):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def dump(rel, value):
    write(rel, json.dumps(value, indent=1, sort_keys=True) + "\n")


# ---------------------------------------------------------------- EDF

def field(text, width, align="left", pad=" "):
    b = text.encode("latin-1")
    assert len(b) <= width, (text, width)
    return b + pad.encode() * (width - len(b)) if align == "left" else pad.encode() * (width - len(b)) + b


def edf_bytes(signals, records, duration, variant="", date="01.01.11", time="10.20.30",
              patient="X X X X", recording="Startdate X X X X", number_align="left", record_count=None):
    """signals: dicts with label, dim, pmin, pmax, dmin, dmax, spr; records: list of per-record lists
    of int16 arrays (annotation signals given as bytes)."""
    ns = len(signals)
    head = b"0       " + field(patient, 80) + field(recording, 80) + field(date, 8) + field(time, 8)
    head += field(str(256 * (ns + 1)), 8) + field(variant, 44)
    head += field(str(len(records) if record_count is None else record_count), 8)
    head += field(repr(duration) if duration != int(duration) else str(int(duration)), 8) + field(str(ns), 4)
    cols = [("label", 16), ("transducer", 80), ("dim", 8), ("pmin", 8), ("pmax", 8), ("dmin", 8), ("dmax", 8),
            ("prefilter", 80), ("spr", 8), ("reserved", 32)]
    for key, width in cols:
        for s in signals:
            value = s.get(key, "")
            text = value if isinstance(value, str) else (repr(value) if isinstance(value, float) else str(value))
            numeric = key in ("pmin", "pmax", "dmin", "dmax", "spr")
            head += field(text, width, "right" if (numeric and number_align == "right") else "left")
    body = b""
    for rec in records:
        for s, data in zip(signals, rec):
            if isinstance(data, bytes):
                assert len(data) <= 2 * s["spr"]
                body += data + b"\x00" * (2 * s["spr"] - len(data))
            else:
                body += np.asarray(data, dtype="<i2").tobytes()
    return head + body


def physical(s, digital):
    scale = (s["pmax"] - s["pmin"]) / (s["dmax"] - s["dmin"])
    offset = s["pmax"] - scale * s["dmax"]
    return (np.asarray(digital, dtype=np.float64) * scale + offset).tolist()


def tal(onset, texts=(), duration=None):
    stamp = ("+" if onset >= 0 else "") + ("%g" % onset if onset != int(onset) else str(int(onset)))
    if duration is not None:
        stamp += "\x15" + "%g" % duration
    body = stamp + "\x14" + "".join(t + "\x14" for t in texts) + ("\x14" if not texts else "")
    return (body + "\x00").encode("utf-8")


def make_edf():
    rng = np.random.default_rng(3)
    expected = {}

    # Plain EDF: odd padding (right-aligned numbers), trailing-space labels, two-digit year.
    sigs = [dict(label="ECG I   ", dim="mV", pmin=-5.0, pmax=5.0, dmin=-2048, dmax=2047, spr=50, transducer="AgAgCl"),
            dict(label="Resp", dim="a.u.", pmin=0.0, pmax=100.0, dmin=0, dmax=1000, spr=50)]
    nrec = 4
    d0 = rng.integers(-2048, 2048, size=nrec * 50)
    d1 = rng.integers(0, 1001, size=nrec * 50)
    recs = [[d0[r * 50:(r + 1) * 50], d1[r * 50:(r + 1) * 50]] for r in range(nrec)]
    write("edf/plain.edf", edf_bytes(sigs, recs, 1, date="01.01.11", time="10.20.30", number_align="right"))
    expected["plain"] = dict(
        format="EDF", start_ns=(int(np.datetime64("2011-01-01T10:20:30", "s").astype(np.int64)) * 10**9),
        labels=["ECG I", "Resp"], units=["mV", "a.u."], rates=[50.0, 50.0], count=nrec * 50,
        values=[physical(sigs[0], d0), physical(sigs[1], d1)], annotations=[], gaps=[])

    # EDF+C, anonymised, mixed rates (200 Hz + 100 Hz), annotations with durations, 0.5 s records.
    sigs = [dict(label="Fp1", dim="uV", pmin=-3276.8, pmax=3276.7, dmin=-32768, dmax=32767, spr=100),
            dict(label="Fp2", dim="uV", pmin=-3276.8, pmax=3276.7, dmin=-32768, dmax=32767, spr=100),
            dict(label="Pleth", dim="%", pmin=0.0, pmax=100.0, dmin=-32768, dmax=32767, spr=50),
            dict(label="EDF Annotations", dim="", pmin=-1.0, pmax=1.0, dmin=-32768, dmax=32767, spr=30)]
    nrec = 6
    t = np.arange(nrec * 100) / 200.0
    a = np.round(8000 * np.sin(2 * np.pi * 3 * t)).astype(int)
    b = rng.integers(-30000, 30000, size=nrec * 100)
    c = rng.integers(-32768, 32768, size=nrec * 50)
    notes = {1: [(0.7, None, ["R"])], 3: [(1.6, 0.25, ["Arousal", "Spindle"])], 5: [(2.9, None, ["R"])]}
    recs = []
    for r in range(nrec):
        ann = tal(r * 0.5) + b"".join(tal(o, texts, d) for o, d, texts in notes.get(r, []))
        recs.append([a[r * 100:(r + 1) * 100], b[r * 100:(r + 1) * 100], c[r * 50:(r + 1) * 50], ann])
    write("edf/mixed.edf", edf_bytes(sigs, recs, 0.5, variant="EDF+C", date="17.03.24", time="08.00.00",
                                     patient="X X X X", recording="Startdate X X X X"))
    expected["mixed"] = dict(
        format="EDF+C", start_ns=int(np.datetime64("2024-03-17T08:00:00", "s").astype(np.int64)) * 10**9,
        labels=["Fp1", "Fp2", "Pleth"], units=["uV", "uV", "%"], rates=[200.0, 200.0, 100.0], count=nrec * 100,
        values=[physical(sigs[0], a), physical(sigs[1], b), physical(sigs[2], c)],
        annotations=[dict(onset=0.7, duration=None, text="R"), dict(onset=1.6, duration=0.25, text="Arousal"),
                     dict(onset=1.6, duration=0.25, text="Spindle"), dict(onset=2.9, duration=None, text="R")],
        gaps=[])

    # EDF+D: records at 0, 1, then a 3 s gap, 5, 6; the recording field carries the 4-digit date.
    sigs = [dict(label="ECG", dim="mV", pmin=-10.0, pmax=10.0, dmin=-32768, dmax=32767, spr=20),
            dict(label="EDF Annotations", dim="", pmin=-1.0, pmax=1.0, dmin=-32768, dmax=32767, spr=20)]
    onsets = [0.0, 1.0, 5.0, 6.0]
    d = rng.integers(-32768, 32768, size=len(onsets) * 20)
    recs = [[d[k * 20:(k + 1) * 20], tal(o) + (tal(o + 0.5, ["Beat"]) if k == 2 else b"")]
            for k, o in enumerate(onsets)]
    write("edf/discontinuous.edf", edf_bytes(sigs, recs, 1, variant="EDF+D", date="02.03.99", time="23.59.58",
                                             recording="Startdate 02-MAR-2099 X X X"))
    expected["discontinuous"] = dict(
        format="EDF+D", start_ns=int(np.datetime64("2099-03-02T23:59:58", "s").astype(np.int64)) * 10**9,
        labels=["ECG"], units=["mV"], rates=[20.0], count=len(onsets) * 20,
        values=[physical(sigs[0], d)], annotations=[dict(onset=5.5, duration=None, text="Beat")],
        gaps=[dict(record=2, start=2.0, duration=3.0)], record_onsets=onsets)
    dump("edf/expected.json", expected)


def read_mit_annotations(path):
    """Sample positions of the beat annotations of an MIT-format annotation file (WFDB annot(5))."""
    words = np.fromfile(path, dtype="<u2").astype(np.int64)
    i, t, beats = 0, 0, []
    while i < len(words):
        code, diff = words[i] >> 10, words[i] & 0x3FF
        i += 1
        if code == 0 and diff == 0:
            break
        if code == 59:  # SKIP: a 32-bit interval, high word first
            skip = (int(words[i]) << 16) | int(words[i + 1])
            t += skip - (1 << 32) if skip >= 1 << 31 else skip
            i += 2
            continue
        if code == 63:  # AUX: diff bytes follow, padded to a word
            i += (diff + 1) // 2
            continue
        if code in (60, 61, 62):  # NUM, SUB, CHN
            continue
        t += diff
        if 1 <= code <= 49 and code != 22:  # beats and non-beat marks, not NOTE
            beats.append(int(t))
    return beats


def digest_shared_edf():
    directory = os.path.join(SHARED, "edf")
    if not os.path.isdir(directory):
        print("../shared/data/edf absent: digests not regenerated")
        return
    import pyedflib
    digests = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".edf"):
            continue
        f = pyedflib.EdfReader(os.path.join(directory, name))
        n = f.signals_in_file
        signals = []
        for i in range(n):
            x = f.readSignal(i)
            picks = [0, 1, 2, 999, len(x) // 2, len(x) - 1]
            signals.append(dict(label=f.getLabel(i), unit=f.getPhysicalDimension(i),
                                rate=float(f.getSampleFrequency(i)), count=int(len(x)),
                                sum=float(np.sum(x)), sum_squares=float(np.sum(x * x)),
                                picks=picks, pick_values=[float(x[k]) for k in picks]))
        onsets, durations, texts = f.readAnnotations()
        start = f.getStartdatetime()
        digests[name] = dict(
            filetype=int(f.filetype), start=start.isoformat(), record_duration=float(f.datarecord_duration),
            records=int(f.datarecords_in_file), signals=signals,
            annotation_onsets_ms=[int(round(o * 1000)) for o in onsets],
            annotation_texts=sorted(set(str(t) for t in texts)),
            qrs_samples=read_mit_annotations(os.path.join(directory, name + ".qrs")))
        f.close()
    dump("edf/shared-digests.json", digests)


# ---------------------------------------------------------------- CSV

def make_csv():
    rng = np.random.default_rng(7)
    expected = {}
    n = 250
    fs = 100.0
    t = np.arange(n) / fs
    x = np.round(np.sin(2 * np.pi * 1.3 * t) * 1000) / 1000
    y = np.round(rng.normal(0, 1, n), 4)
    z = np.round(9.81 + 0.1 * rng.normal(0, 1, n), 3)

    def rows(cols, fmt, sep):
        return "".join(sep.join(fmt(c[i]) for c in cols) + "\n" for i in range(n))

    g = lambda v: repr(float(v))
    # Comma, header, time in seconds.
    write("csv/seconds.csv", "time_s,ecg,ppg\n" + rows([t, x, y], lambda v: "%.10g" % v, ","))
    expected["seconds.csv"] = dict(names=["ecg", "ppg"], rate=100.0, count=n, timing="uniform", time="time_s",
                                   start_ns=0, values=[x.tolist(), y.tolist()])
    # Semicolon + decimal comma, preamble, no time column (rate from the preamble).
    text = "Acquisition frequency: 100 Hz\nDevice;demo\n" + "acc_x;acc_y;acc_z\n"
    text += rows([x, y, z], lambda v: ("%.4f" % v).replace(".", ","), ";")
    write("csv/decimal-comma.csv", text)
    expected["decimal-comma.csv"] = dict(names=["acc_x", "acc_y", "acc_z"], rate=100.0, count=n, timing="fixed",
                                         preamble=2, values=[np.round(x, 4).tolist(), y.tolist(), z.tolist()])
    # TSV, CRLF, quoted header names, milliseconds.
    ms = np.round(t * 1000, 3)
    text = '"t (ms)"\t"x, raw"\t"y"\r\n' + "".join("%g\t%g\t%g\r\n" % (ms[i], x[i], y[i]) for i in range(n))
    write("csv/tab-crlf.tsv", text)
    expected["tab-crlf.tsv"] = dict(names=["x, raw", "y"], rate=100.0, count=n, timing="uniform", time="t (ms)",
                                    start_ns=0, values=[x.tolist(), y.tolist()])
    # No header, nanosecond stamps since boot with jitter (irregular: resampled).
    stamps = 2_461_035_888_559 + np.cumsum(np.r_[0, 10_000_000 + rng.integers(-400_000, 400_000, n - 1)])
    ramp = np.round(2.0 + 0.5 * (stamps - stamps[0]) / 1e9, 9)  # linear in time: exact after linear resampling
    write("csv/boot-ns.csv", "".join("%d,%.9f,%g\n" % (stamps[i], ramp[i], z[i]) for i in range(n)))
    slope = np.polyfit(np.arange(n), (stamps - stamps[0]) / 1e9, 1)[0]
    expected["boot-ns.csv"] = dict(names=["col1", "col2"], rate=1 / slope, timing="resampled", time="col0",
                                   start_ns=int(stamps[0]), ramp_origin=2.0, ramp_slope=0.5,
                                   duration_s=float((stamps[-1] - stamps[0]) / 1e9))
    # Date-times, some without fractional seconds, microsecond stamps in another column ignored by name.
    base = np.datetime64("2016-11-24T13:58:58", "us")
    dts = [base + np.timedelta64(int(round(i * 10_000)), "us") for i in range(n)]
    lines = []
    for i in range(n):
        s = str(dts[i]).replace("T", " ")
        if s.endswith(".000000"):
            s = s[:-7]
        lines.append("%s,%g\n" % (s, x[i]))
    write("csv/datetimes.csv", "datetime,hr\n" + "".join(lines))
    expected["datetimes.csv"] = dict(names=["hr"], rate=100.0, count=n, timing="uniform", time="datetime",
                                     start_ns=int(base.astype(np.int64)) * 1000, values=[x.tolist()])
    # One value per line, no header (rate from --rate).
    write("csv/single.csv", "".join("%g\n" % v for v in x))
    expected["single.csv"] = dict(names=["col0"], count=n, timing="fixed", values=[x.tolist()])
    dump("csv/expected.json", expected)

    # Bad files and the place their error names.
    bad = {
        "bad-number.csv": ("a,b\n1,2\n3,x7\n", dict(line=3, column=2)),
        "short-row.csv": ("a,b,c\n1,2,3\n4,5\n", dict(line=3)),
        "backwards.csv": ("time_s,v\n0,1\n0.01,2\n0.005,3\n", dict(line=4, column=1)),
        "header-only.csv": ("a,b\n", dict()),
        "empty.csv": ("", dict()),
    }
    for name, (text, _) in bad.items():
        write("csv/bad/" + name, text)
    dump("csv/bad/expected.json", {k: v for k, (_, v) in bad.items()})


# ---------------------------------------------------------------- Apple Health ECG

def make_apple():
    rng = np.random.default_rng(11)
    n = 300
    v = np.round(rng.normal(0, 150, n), 3)
    expected = {}
    header = ('Name,Jane Appleseed\nDate of Birth,"Feb 3, 1980"\nRecorded Date,2021-12-17 12:58:58 +0800\n'
              'Classification,Sinus Rhythm\nSymptoms,\nSoftware Version,1.90\nDevice,"Watch5,1"\n'
              'Sample Rate,512 hertz\nLead,Lead I\nUnit,µV\n\n\n')
    write("apple/ecg_english.csv", header + "".join("%.3f\n" % s for s in v))
    expected["ecg_english.csv"] = dict(rate=512.0, lead="Lead I", unit="µV", classification="Sinus Rhythm",
                                       device="Watch5,1", software="1.90",
                                       start_ns=int(np.datetime64("2021-12-17T04:58:58", "s").astype(np.int64)) * 10**9,
                                       values=v.tolist())
    header = ('Name,Max Mustermann\nGeburtsdatum,03.02.1980\nAufnahmedatum,2022-01-05 08:15:30 +0100\n'
              'Klassifizierung,Vorhofflimmern\nSymptome,Keine\nSoftwareversion,2.0\nGerät,"Watch6,2"\n'
              'Abtastrate,"513,625 hertz"\nAbleitung,Ableitung I\nEinheit,µV\n\n')
    write("apple/ecg_decimal_comma.csv", header + "".join(("%.3f\n" % s).replace(".", ",") for s in v))
    expected["ecg_decimal_comma.csv"] = dict(
        rate=513.625, lead="Ableitung I", unit="µV", classification="Vorhofflimmern", device="Watch6,2",
        software="2.0", start_ns=int(np.datetime64("2022-01-05T07:15:30", "s").astype(np.int64)) * 10**9,
        values=v.tolist())
    dump("apple/expected.json", expected)


if __name__ == "__main__":
    make_edf()
    digest_shared_edf()
    make_csv()
    make_apple()

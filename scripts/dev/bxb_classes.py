"""Development check: `vitals score` class statistics against an independent implementation of WFDB bxb.

Usage: python scripts/dev/bxb_classes.py VITALS ../shared/data/mitdb [RECORD ...] [--bxb-amap]
       [--fixture Fixtures/scoring/bxb_classes_mitdb.json]

VITALS is the `vitals` executable. For each record (default: every `.atr` in the folder), a test
annotation is made from the reference by the fixed rule of `perturb` (labels changed, beats moved,
dropped, moved out of the window, added between beats, inside ventricular flutter and in shutdown),
written as a CSV file with EC57 letters (even positions in the list) or as an MIT annotation file with
MIT codes (odd positions), scored by `vitals score --json`, and scored here by `bxb`, the algorithm of `bxb.c` (WFDB
10.5.24, G. B. Moody) re-implemented from its description: its matching loop with one-step look-ahead,
its learning period (`-f`, 5 minutes by default), its skipping of reference beats in ventricular
flutter (`[` to `]`), its shutdown intervals (`~` with subtype bits 4 and 5 set: test beats there count
as X, folded into O below) and its `pair` tally; classes are EC57's (`CLASSES`, as the package's
BeatClass) unless `--bxb-amap` selects bxb's own `amap` (which puts e and j in S). Prints the matrices
that differ and the gross statistics of both; exits 1 when any cell differs. `--fixture` also writes
bxb's matrices (counts only, X folded into O) for the test that repeats the comparison in Swift
(Tests/VitalsPipelineTests/BeatClassEquivalenceTests.swift).

Needs wfdb-python (`.venv-fixtures`). Nothing is written outside a temporary folder.
"""

import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import wfdb

LABELS = "NSVFQO"
CLASSES = {**dict.fromkeys("NLRBej", "N"), **dict.fromkeys("AaJSn", "S"), **dict.fromkeys("VrE", "V"),
           "F": "F", **dict.fromkeys("/fQ?", "Q")}
BXB_AMAP = {**dict.fromkeys("NLRB", "N"), **dict.fromkeys("JASajen", "S"), **dict.fromkeys("VrE", "V"),
            "F": "F", **dict.fromkeys("/fQ?", "Q")}
BEATS = set("NLRBAaJSVrFejnE/fQ?")
MIT_CODE = {"N": "N", "S": "A", "V": "V", "F": "F", "Q": "Q"}
HUGE = 1 << 62


def annotations(path):
    """(sample, symbol, subtype) of every annotation of the MIT annotation file `path`.atr."""
    ann = wfdb.rdann(path, "atr")
    return [(int(s), sym, int(sub)) for s, sym, sub in zip(ann.sample, ann.symbol, ann.subtype)]


def perturb(reference, length, rate):
    """The test beats (sample, class letter) made from the reference beats by a fixed rule."""
    relabel = {"N": "V", "S": "N", "V": "N", "F": "V", "Q": "N"}
    beats = [(s, CLASSES.get(sym, "Q")) for s, sym, _ in reference if sym in BEATS]
    test = []
    for i, (sample, label) in enumerate(beats):
        if i % 53 == 0:
            continue  # missed
        if i % 7 == 3:
            label = relabel[label]
        elif i % 11 == 5 and label in "NV":
            label = "S"
        shift = (i * 37) % 61 - 30  # within ±30 samples
        if i % 67 == 0:
            shift = int(0.25 * rate)  # moved out of the match window: one missed, one extra
        test.append((sample + shift, label))
        if i % 41 == 0 and i + 1 < len(beats):
            test.append(((sample + beats[i + 1][0]) // 2, "N" if i % 2 else "V"))  # extra, between beats
    flutter, start = [], None
    for sample, sym, _ in reference:
        if sym == "[" and start is None:
            start = sample
        elif sym == "]" and start is not None:
            flutter.append((start, sample))
            start = None
    for begin, end in flutter:
        test += [(s, "V") for s in range(begin, end + 1, int(0.25 * rate))]
    test += [(s, "N") for s, sym, sub in reference if sym == "~" and (sub & 0x30) == 0x30]  # in shutdown
    return sorted({s: (s, c) for s, c in test if 0 <= s < length}.values())


class Stream:
    """One annotation file read as bxb's getref/gettest read it: beats, VF skipped, shutdown noted."""

    def __init__(self, items, amap, match, skip_vf):
        self.items, self.index, self.amap, self.match, self.skip_vf = items, 0, amap, match, skip_vf
        self.vf = []  # (on, off) of VF episodes read so far
        self.shutdown = []  # (on, off) of shutdown intervals read so far
        self.time, self.label = 0, None  # current (T, A)
        self.next_time, self.next_label = 0, None  # next (T', A')

    def advance(self):
        """bxb getref()/gettest(): current ← next, next ← the following beat annotation."""
        self.time, self.label = self.next_time, self.next_label
        while self.index < len(self.items):
            sample, sym, sub = self.items[self.index]
            self.index += 1
            if sym in BEATS:
                self.next_time, self.next_label = sample, self.amap.get(sym, "Q")
                return
            if sym == "~" and (sub & 0x30) == 0x30:
                self.read_shutdown(sample)
            elif sym == "[" and self.skip_vf:
                while self.index < len(self.items) and self.items[self.index][1] != "]":
                    self.index += 1
                if self.index == len(self.items):
                    self.vf.append((sample, HUGE))
                    break
                self.vf.append((sample, self.items[self.index][0]))
                self.index += 1
        self.next_time, self.next_label = HUGE, None

    def read_shutdown(self, on):
        if self.index == len(self.items):
            self.shutdown.append((on, HUGE))
            return
        sample, sym, sub = self.items[self.index]
        if sym == "~" and (sub & 0x30) != 0x30:
            self.index += 1
            self.shutdown.append((on, sample))
        else:
            vf_off = self.vf[-1][1] if self.vf else -1
            begin = (vf_off if vf_off > self.time else self.time) + self.match
            end = sample - self.match
            self.shutdown.append((min(begin, end), end))

    def pseudo_label(self, t, with_vf):
        """bxb rpann()/tpann(): '*' in this file's VF (reference only), 'X' in its shutdown, else 'O'."""
        if with_vf and any(on <= t <= off for on, off in self.vf[-2:]):
            return "*"
        if any(on <= t <= off for on, off in self.shutdown[-2:]):
            return "X"
        return "O"


def bxb(reference, test, rate, length, amap, start_seconds=300.0):
    """bxb's matrix (dict 'Ab' → count, A reference, b test, O/X pseudo-beats) of `test` vs `reference`."""
    match, start, end = round(0.15 * rate), round(start_seconds * rate), length
    ref, tst = Stream(reference, amap, match, True), Stream(test, amap, match, True)
    counts = {}

    def pair(a, b):
        if a and b and a in LABELS + "X" and b in LABELS + "X" and a + b not in ("OO", "XX", "OX", "XO"):
            counts[a + b] = counts.get(a + b, 0) + 1

    ref.advance()
    while ref.time < start:
        ref.advance()
    tst.advance()
    while tst.next_time < start:
        tst.advance()
    T, t = ref.time, tst.time
    if T - t < abs(T - tst.next_time) and T - t <= match:
        if ref.label or tst.label:
            pair(ref.label, tst.label)
        ref.advance()
        tst.advance()
    else:
        tst.advance()
        if tst.time - start <= match and abs(ref.time - tst.next_time) < abs(ref.time - tst.time):
            tst.advance()
    while ref.time <= end or tst.time <= end:
        T, Tn, t, tn = ref.time, ref.next_time, tst.time, tst.next_time
        if t < T:
            if T - t <= match and (T - t < abs(T - tn) or abs(Tn - tn) < abs(T - tn)):
                pair(ref.label, tst.label)
                ref.advance()
                tst.advance()
            else:
                pair(ref.pseudo_label(t, True), tst.label)
                tst.advance()
        else:
            if t - T <= match and (t - T < abs(t - Tn) or abs(tn - Tn) < abs(t - Tn)):
                pair(ref.label, tst.label)
                tst.advance()
                ref.advance()
            else:
                pair(ref.label, tst.pseudo_label(T, False))
                ref.advance()
    return counts


def matrix(counts):
    """6 × 6 rows N S V F Q O, columns n s v f q o, X folded into O."""
    fold = lambda label: "O" if label == "X" else label
    result = np.zeros((6, 6), dtype=int)
    for key, value in counts.items():
        result[LABELS.index(fold(key[0])), LABELS.index(fold(key[1]))] += value
    return result


def statistics(m):
    n, s, v, f, q, o = range(6)
    ratio = lambda a, b: float("nan") if b == 0 else 100.0 * a / b
    qtp = m[:5, :5].sum()
    vfp = m[n, v] + m[s, v] + m[o, v]
    vtn = m[np.ix_([n, s, f, q, o], [n, s, f, q])].sum()
    return {
        "Q Se": ratio(qtp, qtp + m[:5, o].sum()), "Q +P": ratio(qtp, qtp + m[o, :5].sum()),
        "V Se": ratio(m[v, v], m[v].sum()), "V +P": ratio(m[v, v], m[v, v] + vfp), "V FPR": ratio(vfp, vtn + vfp),
        "S Se": ratio(m[s, s], m[s].sum()), "S +P": ratio(m[s, s], m[[n, v, f, o], s].sum() + m[s, s]),
    }


def write_test(directory, record, beats, rate, as_annotations):
    if not as_annotations:
        path = directory / f"{record}.csv"
        path.write_text("sample,label\n" + "".join(f"{s},{c}\n" for s, c in beats))
        return path
    wfdb.wrann(record, "tst", np.array([s for s, _ in beats]), symbol=[MIT_CODE[c] for _, c in beats],
               fs=rate, write_dir=str(directory))
    return directory / f"{record}.tst"


def main():
    arguments = [a for a in sys.argv[1:] if a != "--bxb-amap"]
    amap = BXB_AMAP if "--bxb-amap" in sys.argv else CLASSES
    fixture = None
    if "--fixture" in arguments:
        at = arguments.index("--fixture")
        fixture = pathlib.Path(arguments[at + 1])
        del arguments[at:at + 2]
    expected_by_record = {}
    vitals, folder, *records = arguments
    folder = pathlib.Path(folder)
    records = records or sorted(p.stem for p in folder.glob("*.atr"))
    gross_bxb, gross_vitals, differing = np.zeros((6, 6), dtype=int), np.zeros((6, 6), dtype=int), 0
    with tempfile.TemporaryDirectory() as temporary:
        directory = pathlib.Path(temporary)
        for position, record in enumerate(records):
            header = wfdb.rdheader(str(folder / record))
            reference = annotations(str(folder / record))
            beats = perturb(reference, header.sig_len, header.fs)
            path = write_test(directory, record, beats, header.fs, position % 2 == 1)
            test_items = [(s, MIT_CODE[c] if position % 2 else c, 0) for s, c in beats]
            counts = bxb(reference, test_items, header.fs, header.sig_len, amap)
            expected = matrix(counts)
            shutdown = sum(v for k, v in counts.items() if "X" in k)
            output = subprocess.run([vitals, "score", "--json", str(folder / f"{record}.atr"), str(path)],
                                    check=True, capture_output=True, text=True).stdout
            actual = np.array(json.loads(output)["classes"]["records"][0]["counts"])
            expected_by_record[record] = expected.tolist()
            gross_bxb += expected
            gross_vitals += actual
            if not (expected == actual).all():
                differing += 1
                print(f"{record}: differs (bxb − vitals)\n{expected - actual}")
            print(f"{record}: {len(beats)} test beats, {expected.sum()} counted ({shutdown} in shutdown), "
                  f"{'equal' if (expected == actual).all() else 'DIFFERENT'}")
    print(f"records: {len(records)}, differing: {differing}, cells |bxb − vitals| summed: "
          f"{np.abs(gross_bxb - gross_vitals).sum()}")
    for name, m in (("bxb", gross_bxb), ("vitals", gross_vitals)):
        print(name, "gross", " ".join(f"{k} {v:.2f}" for k, v in statistics(m).items()))
        print(m)
    if fixture:
        rows = ",\n".join(f'  "{r}": {json.dumps(m)}' for r, m in sorted(expected_by_record.items()))
        source = ("scripts/dev/bxb_classes.py: bxb's algorithm, learning period 300 s, window 150 ms, rows N S "
                  "V F Q O (reference), columns n s v f q o (test), X folded into O")
        fixture.write_text(f'{{\n "source": {json.dumps(source)},\n "records": {{\n{rows}\n }}\n}}\n')
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()

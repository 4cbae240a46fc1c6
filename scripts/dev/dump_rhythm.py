"""Development only: dump MIT-BIH beat annotations and rhythm changes as JSON into /tmp (never committed).

Usage: python scripts/dev/dump_rhythm.py ../shared/data/mitdb /tmp/mitdb-rhythm 201 203 ...
Each record becomes <out>/<record>.json with the sample rate, the record length in samples, the beat
positions and symbols (beat codes only), and the rhythm changes (sample, aux such as "(AFIB").
"""

import json
import pathlib
import sys

import wfdb

BEATS = set("NLRBAaJSVrFejnE/fQ?")


def main():
    source, out, *records = sys.argv[1:]
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for record in records:
        header = wfdb.rdheader(f"{source}/{record}")
        ann = wfdb.rdann(f"{source}/{record}", "atr")
        beats = [(int(s), sym) for s, sym in zip(ann.sample, ann.symbol) if sym in BEATS]
        rhythm = [(int(s), aux.strip("\x00")) for s, sym, aux in zip(ann.sample, ann.symbol, ann.aux_note) if sym == "+"]
        (out / f"{record}.json").write_text(
            json.dumps(
                {
                    "record": record,
                    "sampleRate": header.fs,
                    "length": header.sig_len,
                    "beats": [b[0] for b in beats],
                    "symbols": [b[1] for b in beats],
                    "rhythmSamples": [r[0] for r in rhythm],
                    "rhythms": [r[1] for r in rhythm],
                }
            )
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a small synthetic Apple Health export, Fixtures/health-export/export.xml, and the
statistics a test expects of it, Fixtures/health-export/expected.json, computed here independently
of Vitals (a second-by-second timeline instead of interval arithmetic).

The export covers 9–11 March 2024 in America/New_York (10 March is the 23-hour day of the spring
change) with: steps from an iPhone and an Apple Watch that overlap in time, heart rate from the
Watch, a blood-pressure Correlation holding two Records, a Workout with nested events and metadata,
an ActivitySummary, sleep-analysis category records, an HKDataType record (skipped by readers),
metadata entries, entities in names and attributes in varied orders, after the DTD preamble that
real exports carry. Dates are written as Apple writes them: local time with the offset of the day.

Expected (per local day): the step total with the Watch ranked above the iPhone and the reverse —
every second counted once, by the highest-ranked source with a sample covering it, that source's
samples contributing value/duration per second — each source's own total, and the heart rate's
count, mean, minimum and maximum (samples assigned by their start).

Run from the package root: python3 Fixtures/generate/health_export.py (standard library only).
Deterministic: fixed seed, fixed dates.
"""
import json
import os
import random
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Fixtures", "health-export")
ZONE = ZoneInfo("America/New_York")
DAYS = [datetime(2024, 3, d, tzinfo=ZONE) for d in (9, 10, 11, 12)]
WATCH = "Anna&apos;s Apple\u00a0Watch"  # as written in the XML
WATCH_NAME = "Anna's Apple\u00a0Watch"
PHONE = "iPhone"
DEVICE = "&lt;&lt;HKDevice: 0x283e1c0a0&gt;, name:Apple Watch, hardware:Watch6,2&gt;"

DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
]>
"""


def stamp(t):
    """Apple's date format: local time with the offset in force then."""
    local = datetime.fromtimestamp(t, ZONE)
    return local.strftime("%Y-%m-%d %H:%M:%S %z")


def record(kind, start, end, source, unit=None, value=None, device=None, order=0, children=""):
    attributes = [("type", kind), ("sourceName", source), ("sourceVersion", "17.3.1")]
    if device:
        attributes.append(("device", device))
    if unit is not None:
        attributes.append(("unit", unit))
    attributes += [("creationDate", stamp(end)), ("startDate", stamp(start)), ("endDate", stamp(end))]
    if value is not None:
        attributes.append(("value", value))
    if order % 3 == 1:
        attributes.reverse()
    elif order % 3 == 2:
        attributes = attributes[3:] + attributes[:3]
    text = " ".join(f'{k}="{v}"' for k, v in attributes)
    if children:
        return f" <Record {text}>\n{children} </Record>\n"
    return f" <Record {text}/>\n"


def main():
    rng = random.Random(20240310)
    t0 = int(DAYS[0].timestamp())
    t3 = int(DAYS[3].timestamp())
    steps = []  # (source, start, end, value)
    heart = []  # (start, end, value)
    t = t0 + 6 * 3600
    while t < t3 - 3 * 3600:
        # A walk of 4–40 minutes: the iPhone writes 5–10 minute samples, the Watch 1–3 minute ones,
        # starting a little later and running a little longer.
        length = rng.randrange(240, 2400)
        s = t
        while s < t + length:
            d = min(rng.randrange(300, 600), t + length - s)
            steps.append((PHONE, s, s + d, rng.randrange(80, 120) * d // 60))
            s += d
        s = t + rng.randrange(0, 120)
        while s < t + length + 90:
            d = rng.randrange(60, 180)
            steps.append((WATCH_NAME, s, s + d, rng.randrange(85, 125) * d // 60))
            s += d
        t += length + rng.randrange(3600, 6 * 3600)
    for s in range(t0, t3, 613):
        heart.append((s, s + rng.choice([0, 5, 60]), rng.randrange(52, 150)))

    body = ['<HealthData locale="en_US">\n', f' <ExportDate value="{stamp(t3)}"/>\n',
            ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-01-01" '
            'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>\n']
    rows = [(s, 0, i) for i, s in enumerate(steps)] + [(h, 1, i) for i, h in enumerate(heart)]
    rows.sort(key=lambda r: (r[1], r[0][1] if r[1] == 0 else r[0][0], r[2]))
    for n, (item, kind, _) in enumerate(rows):
        if kind == 0:
            source, start, end, value = item
            name = WATCH if source == WATCH_NAME else PHONE
            children = ""
            if n % 50 == 7:
                children = '  <MetadataEntry key="HKWasUserEntered" value="0"/>\n'
            body.append(record("HKQuantityTypeIdentifierStepCount", start, end, name, "count", value,
                               DEVICE if source == WATCH_NAME else None, n, children))
        else:
            start, end, value = item
            children = ""
            if n % 40 == 3:
                children = ('  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>\n'
                            '  <HeartRateVariabilityMetadataList>\n'
                            '   <InstantaneousBeatsPerMinute bpm="95" time="6:14:48.94 PM"/>\n'
                            '  </HeartRateVariabilityMetadataList>\n')
            body.append(record("HKQuantityTypeIdentifierHeartRate", start, end, WATCH, "count/min", value,
                               DEVICE, n, children))
    bp = t0 + 9 * 3600
    body.append(record("HKDataTypeSleepDurationGoal", bp, bp, "Health", "hr", 8))
    body.append(f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" '
                f'creationDate="{stamp(bp)}" startDate="{stamp(bp)}" endDate="{stamp(bp)}">\n'
                '  <MetadataEntry key="HKWasUserEntered" value="1"/>\n'
                + record("HKQuantityTypeIdentifierBloodPressureSystolic", bp, bp, "Omron", "mmHg", 121).replace(" <", "  <", 1)
                + record("HKQuantityTypeIdentifierBloodPressureDiastolic", bp, bp, "Omron", "mmHg", 79).replace(" <", "  <", 1)
                + ' </Correlation>\n')
    w = t0 + 30 * 3600
    body.append(f' <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" '
                f'sourceName="{WATCH}" startDate="{stamp(w)}" endDate="{stamp(w + 1800)}">\n'
                '  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
                f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{stamp(w)}" duration="10"/>\n'
                '  <WorkoutStatistics type="HKQuantityTypeIdentifierStepCount" sum="3100" unit="count"/>\n'
                '  <WorkoutRoute sourceName="Watch"><FileReference path="/workout-routes/route.gpx"/></WorkoutRoute>\n'
                ' </Workout>\n')
    body.append(' <ActivitySummary dateComponents="2024-03-10" activeEnergyBurned="412.5" '
                'activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal" appleExerciseTime="31"/>\n')
    body.append(' <!-- a comment with <Record type="HKQuantityTypeIdentifierStepCount"/> inside -->\n')
    sleep = t0 + 22 * 3600
    body.append(record("HKCategoryTypeIdentifierSleepAnalysis", sleep, sleep + 7 * 3600, WATCH,
                       value="HKCategoryValueSleepAnalysisAsleepCore"))
    body.append(record("HKCategoryTypeIdentifierIrregularHeartRhythmEvent", sleep + 3600, sleep + 5400, WATCH,
                       value="HKCategoryValueNotApplicable", order=1))
    body.append("</HealthData>\n")
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "export.xml"), "w", encoding="utf-8") as f:
        f.write(DTD + "".join(body))

    def daily_steps(priority):
        rank = {source: i for i, source in enumerate(priority)}
        per_second = {}
        for source, start, end, value in steps:
            for s in range(start, end):
                per_second.setdefault(s, {}).setdefault(source, 0.0)
                per_second[s][source] += value / (end - start)
        totals = [0.0] * 3
        for s, sources in per_second.items():
            best = min(sources, key=lambda x: rank[x])
            totals[day_of(s)] += sources[best]
        return totals

    def day_of(t):
        for k in range(3):
            if DAYS[k].timestamp() <= t < DAYS[k + 1].timestamp():
                return k
        raise ValueError(t)

    def source_total(source):
        totals = [0.0] * 3
        for s_source, start, end, value in steps:
            if s_source == source:
                for s in range(start, end):
                    totals[day_of(s)] += value / (end - start)
        return totals

    hr = [[] for _ in range(3)]
    for start, end, value in heart:
        hr[day_of(start)].append(value)
    expected = {
        "timeZone": "America/New_York",
        "dayStarts": [d.isoformat() for d in DAYS],
        "dayHours": [(DAYS[k + 1].timestamp() - DAYS[k].timestamp()) / 3600 for k in range(3)],
        "sources": {"watch": WATCH_NAME, "phone": PHONE},
        "stepsWatchFirst": daily_steps([WATCH_NAME, PHONE]),
        "stepsPhoneFirst": daily_steps([PHONE, WATCH_NAME]),
        "stepsWatchOnly": source_total(WATCH_NAME),
        "stepsPhoneOnly": source_total(PHONE),
        "heartRateCount": [len(v) for v in hr],
        "heartRateMean": [sum(v) / len(v) for v in hr],
        "heartRateMin": [min(v) for v in hr],
        "heartRateMax": [max(v) for v in hr],
        "quantitySamples": len(steps) + len(heart) + 2,
        "categorySamples": 2,
        "skippedRecords": 1,
        "stepSamples": len(steps),
    }
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()

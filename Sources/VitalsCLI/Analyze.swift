import ArgumentParser
import Vitals

/// `vitals analyze INPUT… [--out DIR] [--jobs N] [--force]`: every metric of many recordings, on all cores.
public struct Analyze: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "analyze",
    abstract:
      "Analyze recordings (files, folders, globs) on all cores: one JSON Lines summary per recording.",
    discussion: """
      Each recording is read once, in chunks, and every pipeline its channels need runs over it: ECG \
      (beats, heart rate, HRV time domain, LF/HF, SD1/SD2, irregular-rhythm episodes, signal quality) \
      under "ecg"; PPG (pulses, heart rate over 8 s windows with quality, motion-corrected with the \
      accelerometer axes, pulse-rate variability) under "ppg"; accelerometer (steps, walking_s, cadence_spm, walking bouts as in `vitals steps`, and \
      the motion level: standard deviation of the acceleration magnitude per 10 s, in g) under "steps". \
      Channels are recognized by name, unit and rate (ECG: MLII, II, ECG…, standard leads; PPG: ppg…, \
      pleth…; accelerometer: x/y/z, acc…, units g or m/s^2, else three names of one stem ending in x, y, z, \
      else the first three columns of a header-less CSV of three to six signals); --ecg, --ppg and --accel override. Kinds \
      that are recognized but cannot be analyzed (fewer than three accelerometer axes, a rate outside a \
      detector's range) are listed under "not_analyzed" with the reason.

      --shard I/N analyzes only the recordings whose path hashes to shard I of N (disjoint shards that \
      together hold every recording), for the tasks of a job array; `vitals stats --partial` and `vitals \
      merge` then combine the shards' samples.

      Output: one JSON object per recording and line, in input order, on standard output; with --out DIR, \
      DIR/NAME.json (the same line), DIR/NAME.beats.csv, DIR/NAME.pulses.csv and DIR/NAME.steps.csv (sample,time_s) and \
      DIR/NAME.samples.jsonl, each written atomically, and recordings whose DIR/NAME.json is newer than the input are skipped (--force redoes them), so an \
      interrupted run resumes; the skip compares times, not options: after changing an option, give --force. A progress bar goes to standard error when it is a terminal. A recording \
      that fails is reported on standard error (file and place) and the others complete; the exit code is \
      then 1.

      DIR/NAME.samples.jsonl holds the samples `vitals stats` reads (from the ECG beats, or without an \
      ECG the PPG pulses): heartRate and \
      heartRateVariabilitySDNN per minute, stepCount per minute (with --height, walkingStepLength and \
      walkingSpeed per walking bout of 10 steps or more and distanceWalkingRunning per minute, from the \
      cadence and the height by the walk ratio; with --walking-asymmetry, walkingAsymmetryPercentage per \
      walking bout of 10 steps or more), restingHeartRate (lowest heart rate of 5 \
      consecutive minutes without steps and with motion ≤ 0.05 g) and walkingHeartRateAverage per day, \
      highHeartRateEvent / lowHeartRateEvent (above --high-heart-rate / below --low-heart-rate for \
      --event-minutes quiet minutes) and irregularHeartRhythmEvent. Times are absolute: the recording's \
      start time plus the offset of each sample. A recording that states no start time (CSV without \
      date-time stamps, a WFDB header without a base date) has "start_time": null and no samples file, \
      with a note on standard error, unless --start gives its start. Days are those of --timezone. The \
      source is Vitals and the device the recording's name.
      """)

  @Argument(help: "Recordings: files, folders (searched recursively) or glob patterns.")
  public var inputs: [String] = []

  @Option(
    help:
      "Write DIR/NAME.json, the event tables and DIR/NAME.samples.jsonl per recording instead of standard output."
  )
  public var out: String?

  @Option(
    help:
      "Recordings analyzed at once, \(optionRange(OptionRange.jobs)) (default: the number of cores, at most \(OptionRange.jobs.upperBound)); with at least twice as many jobs as recordings, each takes two threads."
  )
  public var jobs: Int = min(BatchAnalysis.processorCount, OptionRange.jobs.upperBound)

  @Flag(help: "Analyze recordings even when their results in --out are up to date.")
  public var force = false

  @Option(help: "The ECG lead, by name or 0-based index (default: recognized).")
  public var ecg: String?

  @Option(help: "The PPG channels, by name or index, comma-separated (default: recognized).")
  public var ppg: String?

  @Option(
    help:
      "The IANA time zone of the days of resting and walking heart rate and of the times written (default: UTC).",
    transform: { name throws(TimeZoneError) in try TimeZoneRules(named: name) })
  public var timezone: TimeZoneRules = .utc

  @Option(
    help:
      "Heart rate above which quiet minutes make a high-heart-rate event, \(optionRange(OptionRange.heartRate)) bpm."
  )
  public var highHeartRate = 120.0

  @Option(
    help:
      "Heart rate below which quiet minutes make a low-heart-rate event, \(optionRange(OptionRange.heartRate)) bpm."
  )
  public var lowHeartRate = 40.0

  @Option(
    help:
      "Consecutive quiet minutes above or below those rates that make an event, \(optionRange(OptionRange.eventMinutes))."
  )
  public var eventMinutes = 10

  @Option(
    help:
      "The walker's height, \(optionRange(StepLengthModel.heights)) m: adds walkingStepLength, walkingSpeed and distanceWalkingRunning samples (a walk-ratio model)."
  )
  public var height: Double?

  @Flag(
    help:
      "The accelerometer is at the trunk (a belt or the lower back): adds a walkingAsymmetryPercentage sample per walking bout of 10 steps or more."
  )
  public var walkingAsymmetry = false

  @Option(
    help:
      "Where the accelerometer is worn: body (trunk, pocket, bag, hand, arm, ankle) or wrist (a watch)."
  )
  public var placement: StepDetector.Placement = .body

  @Option(
    help:
      "Analyze shard I of N only (1 ≤ I ≤ N ≤ \(OptionRange.shards.upperBound)): the recordings whose path hashes to it, for a task of a job array."
  )
  public var shard: String?

  @OptionGroup public var input: InputOptions

  public init() {}
}

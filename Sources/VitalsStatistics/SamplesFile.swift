import FoundationEssentials
import VitalsCore
import VitalsIO

/// The samples file of the pipeline: JSON Lines (`*.samples.jsonl`), one sample per line.
///
/// A quantity sample is
/// `{"type":"heartRate","start":"2024-03-10T08:15:02-05:00","end":"2024-03-10T08:16:02-05:00","value":72.5,"unit":"count/min","source":"Vitals","device":"…"}`;
/// a category sample has no numeric value and no unit (`{"type":"irregularHeartRhythmEvent",…}`;
/// a category value, where the type has one, is a string `"value"`); a line with a `unit` is a quantity.
/// A `heartbeatSeries` line has `"beats"` (seconds since `start`, increasing) and `"precededByGap"`
/// (the indices into `beats` of the beats preceded by a gap); an `electrocardiogram` line has
/// `"classification"` (HealthKit's case name), `"averageHeartRate"` (count/min, or `null`), `"lead"`,
/// `"samplingFrequency"` (Hz) and `"numberOfVoltageMeasurements"` (<doc:HealthKitStatistics> shows
/// every shape). `device` and `metadata` (an
/// object of strings) are optional. Times are ISO 8601 with the UTC offset of the writer's time zone
/// and as many fractional digits as the nanoseconds need. NaN and infinite values are written as
/// `null`, which reads back as NaN.
public enum SamplesFile {
  /// The file name suffix that marks a samples file.
  public static let fileExtension = ".samples.jsonl"

  /// One line (without its newline) for `sample`, times in `timeZone`.
  public static func line(_ sample: HealthSample, timeZone: TimeZoneRules) -> String {
    // Written into one string: each value straight after its key, no list of fields to join.
    var line = "{"
    func add(_ key: String, _ json: String) {
      add(key)
      line += json
    }
    func add(_ key: String) {
      if line.utf8.count > 1 { line += "," }
      line += "\""
      line += key
      line += "\":"
    }
    func addNumber(_ value: Double?) {
      if let value, value.isFinite { value.write(to: &line) } else { line += "null" }
    }
    add("type", jsonString(sample.typeName))
    add("start", jsonString(sample.start.iso8601(in: timeZone)))
    add("end", jsonString(sample.end.iso8601(in: timeZone)))
    let common: (source: String, device: String?, metadata: [String: String])
    switch sample {
    case .quantity(let q):
      common = (q.source, q.device, q.metadata)
      add("value")
      addNumber(q.value)
      add("unit", jsonString(q.unit.symbol))
    case .category(let c):
      common = (c.source, c.device, c.metadata)
      if let value = c.value { add("value", jsonString(value)) }
    case .heartbeatSeries(let h):
      common = (h.source, h.device, h.metadata)
      line.reserveCapacity(line.utf8.count + 20 * h.beats.count + 100)
      add("beats")
      line += "["
      for (index, beat) in h.beats.enumerated() {
        if index > 0 { line += "," }
        addNumber(beat.timeSinceSeriesStart)
      }
      line += "]"
      add("precededByGap", "[")
      var separator = ""
      for index in h.beats.indices where h.beats[index].precededByGap {
        line += separator
        line += String(index)
        separator = ","
      }
      line += "]"
    case .electrocardiogram(let e):
      common = (e.source, e.device, e.metadata)
      add("classification", jsonString(e.classification))
      add("averageHeartRate")
      addNumber(e.averageHeartRate)
      add("lead", jsonString(e.lead))
      add("samplingFrequency")
      addNumber(e.samplingFrequency)
      add("numberOfVoltageMeasurements", "\(e.numberOfVoltageMeasurements)")
    }
    add("source", jsonString(common.source))
    if let device = common.device { add("device", jsonString(device)) }
    if !common.metadata.isEmpty { add("metadata", jsonObject(common.metadata)) }
    line += "}"
    return line
  }

  /// One line as JSON, decoded.
  struct Line: Decodable {
    enum Value: Decodable {
      case number(Double)
      case text(String)

      init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
          self = .text(text)
        } else {
          self = .number(try container.decode(Double.self))
        }
      }
    }

    var type: String
    var start: String
    var end: String
    var value: Value?
    var unit: String?
    var source: String?
    var device: String?
    var metadata: [String: String]?
    // heartbeatSeries
    var beats: [Double]?
    var precededByGap: [Int]?
    // electrocardiogram
    var classification: String?
    var averageHeartRate: Double?
    var lead: String?
    var samplingFrequency: Double?
    var numberOfVoltageMeasurements: Int?
  }

  /// The sample of one line, or a description of what is wrong with it.
  static func sample(of line: UnsafeBufferPointer<UInt8>, decoder: JSONDecoder) -> Result<
    HealthSample, LineProblem
  > {
    let decoded: Line
    do {
      decoded = try decoder.decode(Line.self, from: Data(buffer: line))
    } catch {
      return .failure(LineProblem("expected a JSON object with type, start and end (strings)"))
    }
    func time(_ text: String, _ key: String) -> Result<Timestamp, LineProblem> {
      switch Array(text.utf8).withUnsafeBufferPointer({ readDateTime($0) }) {
      case .success(let nanoseconds): return .success(Timestamp(nanosecondsSinceEpoch: nanoseconds))
      case .failure(.malformed):
        return .failure(LineProblem("expected an ISO 8601 \(key) time, found '\(text)'"))
      case .failure(let refusal):
        return .failure(LineProblem("the \(key) time '\(text)' is not a possible date and time: \(refusal)"))
      }
    }
    let start: Timestamp
    let end: Timestamp
    switch (time(decoded.start, "start"), time(decoded.end, "end")) {
    case (.success(let s), .success(let e)): (start, end) = (s, e)
    case (.failure(let problem), _), (_, .failure(let problem)): return .failure(problem)
    }
    guard start <= end else { return .failure(LineProblem("expected end not before start")) }
    let source = decoded.source ?? ""
    switch decoded.type {
    case HeartbeatSeriesSample.typeName:
      return heartbeatSeries(decoded, start: start, end: end, source: source)
    case ElectrocardiogramSample.typeName:
      return electrocardiogram(decoded, start: start, end: end, source: source)
    default: break
    }
    var number: Double?
    switch decoded.value {
    case .number(let value): number = value
    case .text(let text):
      return .success(categorySample(decoded, value: text, start: start, end: end, source: source))
    case nil: if decoded.unit != nil { number = .nan }  // "value":null
    }
    guard let number else {
      return .success(categorySample(decoded, value: nil, start: start, end: end, source: source))
    }
    guard let unit = decoded.unit else {
      return .failure(LineProblem("expected a unit with the numeric value"))
    }
    return .success(
      .quantity(
        QuantitySample(
          type: QuantityType(rawValue: decoded.type), value: number, unit: HealthUnit(unit), start: start,
          end: end,
          source: source, device: decoded.device, metadata: decoded.metadata ?? [:])))
  }

  /// The heartbeat series of a line: `beats` (seconds since `start`, increasing, within the span) and
  /// `precededByGap` (indices into `beats`).
  private static func heartbeatSeries(
    _ line: Line, start: Timestamp, end: Timestamp, source: String
  ) -> Result<HealthSample, LineProblem> {
    guard let times = line.beats, let gaps = line.precededByGap else {
      return .failure(
        LineProblem("expected beats (numbers) and precededByGap (indices) in a heartbeatSeries"))
    }
    let span = start.seconds(to: end)
    guard zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }), times.allSatisfy({ $0 >= 0 && $0 <= span })
    else { return .failure(LineProblem("expected increasing beat times within the series' span")) }
    guard gaps.allSatisfy({ times.indices.contains($0) }) else {
      return .failure(LineProblem("expected precededByGap indices into beats (0..<\(times.count))"))
    }
    var beats = times.map { Heartbeat(timeSinceSeriesStart: $0, precededByGap: false) }
    for index in gaps { beats[index].precededByGap = true }
    return .success(
      .heartbeatSeries(
        HeartbeatSeriesSample(
          start: start, end: end, beats: beats, source: source, device: line.device,
          metadata: line.metadata ?? [:])))
  }

  /// The electrocardiogram of a line: `classification`, `lead`, `samplingFrequency` (positive) and
  /// `numberOfVoltageMeasurements` (not negative) required, `averageHeartRate` optional.
  private static func electrocardiogram(
    _ line: Line, start: Timestamp, end: Timestamp, source: String
  ) -> Result<HealthSample, LineProblem> {
    guard let classification = line.classification, let lead = line.lead, let rate = line.samplingFrequency,
      let count = line.numberOfVoltageMeasurements, rate > 0, count >= 0
    else {
      return .failure(
        LineProblem(
          "expected classification, lead, samplingFrequency (Hz, positive) and numberOfVoltageMeasurements "
            + "(not negative) in an electrocardiogram"))
    }
    return .success(
      .electrocardiogram(
        ElectrocardiogramSample(
          classification: classification, averageHeartRate: line.averageHeartRate, lead: lead,
          samplingFrequency: rate, numberOfVoltageMeasurements: count, start: start, end: end, source: source,
          device: line.device, metadata: line.metadata ?? [:])))
  }

  private static func categorySample(
    _ line: Line, value: String?, start: Timestamp, end: Timestamp, source: String
  ) -> HealthSample {
    .category(
      CategorySample(
        type: CategoryType(rawValue: line.type), value: value, start: start, end: end, source: source,
        device: line.device, metadata: line.metadata ?? [:]))
  }
}

/// What is wrong with a line of a samples file.
struct LineProblem: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// Writes a samples file (``SamplesFile``), buffered.
public final class SamplesFileWriter {
  private let output: BufferedOutput
  private let timeZone: TimeZoneRules

  /// Creates (or truncates) the file at `path` (`-`: standard output); times are written with the
  /// offsets of `timeZone`.
  public init(path: String, timeZone: TimeZoneRules = .utc) throws(OutputError) {
    output = try BufferedOutput(path: path)
    self.timeZone = timeZone
  }

  /// Appends one sample.
  public func write(_ sample: HealthSample) throws(OutputError) {
    try output.write(Array((SamplesFile.line(sample, timeZone: timeZone) + "\n").utf8))
  }

  /// Writes out what is buffered and closes the file.
  public func close() throws(OutputError) { try output.close() }
}

/// Reads a samples file (``SamplesFile``) one line at a time, in constant memory. Empty lines are
/// skipped; a malformed line throws `InputError` naming the file and line.
public final class SamplesFileReader {
  private let lines: LineBuffer
  private let decoder = JSONDecoder()

  /// Opens the file at `path` (`-`: standard input).
  public init(path: String) throws(InputError) {
    lines = LineBuffer(input: try ByteInput(path: path))
  }

  /// Reads a samples file held in memory; `name` stands for the path in errors.
  public init(bytes: [UInt8], name: String) {
    lines = LineBuffer(input: ByteInput(bytes: bytes, name: name))
  }

  /// The next sample, or `nil` at the end of the file.
  public func next() throws(InputError) -> HealthSample? {
    while let line = try lines.nextLine() {
      var trimmed = line
      while let last = trimmed.last, last == 0x0D || last == 0x20 {
        trimmed = UnsafeBufferPointer(rebasing: trimmed.dropLast())
      }
      if trimmed.isEmpty { continue }
      switch SamplesFile.sample(of: trimmed, decoder: decoder) {
      case .success(let sample): return sample
      case .failure(let problem):
        throw InputError(path: lines.input.path, location: .line(lines.lineNumber), problem.message)
      }
    }
    return nil
  }
}

extension Timestamp {
  /// The instant in ISO 8601 form with the UTC offset `timeZone` has then: `2024-03-10T08:15:02-05:00`
  /// (`Z` for a zero offset), fractional digits as `iso8601` writes them. The offset is the one of the
  /// whole second holding the instant, before the epoch too (−0.5 s lies in second −1:
  /// `1969-12-31T23:59:59.5Z`).
  public func iso8601(in timeZone: TimeZoneRules) -> String {
    let offset = timeZone.offset(at: self)
    let local = advanced(byNanoseconds: Int64(offset) * 1_000_000_000).iso8601
    if offset == 0 { return local }
    let magnitude = abs(offset) / 60
    let sign = offset < 0 ? "-" : "+"
    let hours = magnitude / 60 < 10 ? "0\(magnitude / 60)" : "\(magnitude / 60)"
    let minutes = magnitude % 60 < 10 ? "0\(magnitude % 60)" : "\(magnitude % 60)"
    return local.dropLast() + sign + hours + ":" + minutes
  }
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
  if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
    return "\"" + text + "\""
  }
  var result = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case "\t": result += "\\t"
    default:
      if scalar.value < 0x20 {
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
  }
  return result + "\""
}

/// A JSON object of strings, keys sorted.
private func jsonObject(_ pairs: [String: String]) -> String {
  "{"
    + pairs.sorted { $0.key < $1.key }.map { jsonString($0.key) + ":" + jsonString($0.value) }.joined(
      separator: ",") + "}"
}

import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsTestSupport

@testable import VitalsStatistics

/// What Fixtures/generate/health_export.py computed of its export, independently.
struct ExpectedExport: Decodable {
  var timeZone: String
  var dayHours: [Double]
  var sources: [String: String]
  var stepsWatchFirst: [Double]
  var stepsPhoneFirst: [Double]
  var stepsWatchOnly: [Double]
  var stepsPhoneOnly: [Double]
  var heartRateCount: [Int]
  var heartRateMean: [Double]
  var heartRateMin: [Double]
  var heartRateMax: [Double]
  var quantitySamples: Int
  var categorySamples: Int
  var skippedRecords: Int
}

func readAll(_ reader: HealthExportReader) throws -> [HealthSample] {
  var samples: [HealthSample] = []
  while let sample = try reader.next() { samples.append(sample) }
  return samples
}

func readXML(_ text: String, blockSize: Int = 1 << 20) throws -> [HealthSample] {
  try readAll(HealthExportReader(bytes: Array(text.utf8), name: "export.xml", blockSize: blockSize))
}

@Suite struct HealthExportTests {
  let expected: ExpectedExport
  let samples: [HealthSample]
  let reader: HealthExportReader

  init() throws {
    expected = try TestData.decodeFixture(ExpectedExport.self, "health-export/expected.json")
    reader = try HealthExportReader(path: TestData.fixture("health-export/export.xml").path)
    samples = try readAll(reader)
  }

  var quantities: [QuantitySample] {
    samples.compactMap { if case .quantity(let q) = $0 { q } else { nil } }
  }

  @Test func readsEveryRecord() {
    #expect(quantities.count == expected.quantitySamples)
    let categories = samples.compactMap { if case .category(let c) = $0 { c } else { nil } }
    #expect(categories.map(\.type) == [.sleepAnalysis, .irregularHeartRhythmEvent])
    #expect(categories[1].value == "HKCategoryValueNotApplicable")
    #expect(reader.skippedRecords == expected.skippedRecords)
    let pressure = quantities.filter { $0.source == "Omron" }
    #expect(pressure.map(\.type.rawValue) == ["bloodPressureSystolic", "bloodPressureDiastolic"])
    #expect(pressure.map(\.value) == [121, 79] && pressure[0].unit == HealthUnit("mmHg"))
    let watch = quantities.first { $0.source == expected.sources["watch"] }!
    #expect(watch.device == "<<HKDevice: 0x283e1c0a0>, name:Apple Watch, hardware:Watch6,2>")
    #expect(quantities.contains { $0.metadata["HKWasUserEntered"] == "0" })
    #expect(quantities.contains { $0.metadata["HKMetadataKeyHeartRateMotionContext"] == "1" })
  }

  /// Daily intervals over the export's three days, in its zone.
  var days: IntervalCollection {
    let zone = try! TimeZoneRules(named: expected.timeZone)
    let anchor = local(2024, 3, 9, in: zone)
    return IntervalCollection(
      length: .days(1), anchor: anchor, timeZone: zone, covering: anchor..<local(2024, 3, 12, in: zone))
  }

  @Test func dayLengthsFollowDaylightSaving() {
    #expect((0..<3).map { days.boundary($0).seconds(to: days.boundary($0 + 1)) / 3600 } == expected.dayHours)
  }

  @Test func dailyStepsCountEachMomentOnce() throws {
    let watch = expected.sources["watch"]!
    let phone = expected.sources["phone"]!
    for (order, totals) in [
      ([watch, phone], expected.stepsWatchFirst), ([phone, watch], expected.stepsPhoneFirst),
    ] {
      let query = StatisticsQuery(type: .stepCount, intervals: days, sourcePriority: SourcePriority(order))
      let result = try query.run(quantities, separateBySource: true)
      for k in 0..<3 {
        #expect(abs(result.merged.statistics(k).sum! - totals[k]) < 1e-6)
        #expect(abs(result.bySource[watch]!.statistics(k).sum! - expected.stepsWatchOnly[k]) < 1e-6)
        #expect(abs(result.bySource[phone]!.statistics(k).sum! - expected.stepsPhoneOnly[k]) < 1e-6)
      }
    }
  }

  @Test func dailyHeartRate() throws {
    let result = try StatisticsQuery(type: .heartRate, intervals: days).run(quantities).merged
    for k in 0..<3 {
      let day = result.statistics(k)
      #expect(day.sampleCount == expected.heartRateCount[k])
      #expect(abs(day.average! - expected.heartRateMean[k]) < 1e-9)
      #expect(day.minimum == expected.heartRateMin[k] && day.maximum == expected.heartRateMax[k])
    }
  }

  @Test(arguments: [7, 64, 333])
  func smallBlocksReadTheSame(blockSize: Int) throws {
    let bytes = try [UInt8](Data(contentsOf: TestData.fixture("health-export/export.xml")))
    let cut = try readAll(HealthExportReader(bytes: bytes, name: "export.xml", blockSize: blockSize))
    #expect(cut == samples)
  }
}

@Suite struct HealthExportMutationTests {
  /// Damaged exports (bytes changed, inserted or cut) read without a crash: samples or an InputError.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func damagedExportsThrowOrRead(seed: UInt64) throws {
    let whole = try [UInt8](Data(contentsOf: TestData.fixture("health-export/export.xml")))
    let original = Array(whole.prefix(12_000))
    let alphabet = Array("<>/=\"'&;#x ?!-[]\n".utf8) + [0x41, 0x30, 0xC3]
    var rng = SplitMix64(state: seed)
    var failures = 0
    for _ in 0..<100 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch rng.next() % 3 {
        case 0: bytes[at] = alphabet.randomElement(using: &rng)!
        case 1: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
        default: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &rng)))
        }
      }
      do {
        _ = try readAll(HealthExportReader(bytes: bytes, name: "damaged.xml", blockSize: 97))
      } catch let error as InputError {
        #expect(error.path == "damaged.xml")
        failures += 1
      }
    }
    #expect(failures > 0)  // the cut ends inside the root element at least
  }
}

@Suite struct HealthExportScannerTests {
  static let head = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!ATTLIST Record note CDATA "a > b ]">
    ]>
    <HealthData locale="en_US">

    """

  @Test func entitiesAndAttributeOrder() throws {
    let samples = try readXML(
      Self.head + """
         <Record value='3.5' endDate="2024-03-10 08:16:00 -0500" startDate="2024-03-10 08:15:02 -0500"
           unit="km" sourceName="Tom &amp; Jerry&#39;s &#x3C;Phone&#x3e; &quot;x&quot; &lt;&gt; &bogus;"
           type="HKQuantityTypeIdentifierDistanceWalkingRunning"/>
        </HealthData>
        """)
    guard case .quantity(let q) = samples.first else {
      Issue.record("expected a quantity sample")
      return
    }
    #expect(samples.count == 1)
    #expect(q.source == "Tom & Jerry's <Phone> \"x\" <> &bogus;")
    #expect(q.type == .distanceWalkingRunning && q.value == 3.5 && q.unit == .kilometers)
    #expect(q.start == Timestamp(nanosecondsSinceEpoch: 1_710_076_502_000_000_000))
    #expect(q.end.nanosecondsSinceEpoch - q.start.nanosecondsSinceEpoch == 58_000_000_000)
  }

  @Test func recordsInsideWorkoutsAreSkippedButCorrelationsAreRead() throws {
    let r =
      #"type="HKQuantityTypeIdentifierStepCount" unit="count" value="5" sourceName="A" startDate="2024-01-01 00:00:00 +0000" endDate="2024-01-01 00:01:00 +0000""#
    let samples = try readXML(
      Self.head + """
         <Workout duration="1"><Record \(r)/><WorkoutEvent><Record \(r)/></WorkoutEvent></Workout>
         <Correlation type="x"><Record \(r)><MetadataEntry key="k" value="v"/></Record></Correlation>
         <ClinicalRecord/>
         <![CDATA[ <Record \(r)/> ]]>
         <Record \(r)/>
        </HealthData>
        """)
    #expect(samples.count == 2)
    if case .quantity(let q) = samples[0] {
      #expect(q.metadata == ["k": "v"])
    } else {
      Issue.record("not a quantity")
    }
  }

  @Test(arguments: [
    (
      "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"1\" sourceName=\"A\" startDate=\"2024-13-01 00:00:00 +0000\" endDate=\"2024-01-01 00:00:00 +0000\"/>",
      "the startDate '2024-13-01 00:00:00 +0000' is not a possible date and time: month 13 is not 01–12"
    ),
    (
      "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"1\" sourceName=\"A\" startDate=\"2024-02-28 10:00:00 -0500\" endDate=\"2024-02-30 10:10:00 -0500\"/>",
      "the endDate '2024-02-30 10:10:00 -0500' is not a possible date and time: day 30 is not in February "
        + "2024, which has 29 days"
    ),
    (
      "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"1\" sourceName=\"A\" startDate=\"yesterday\" endDate=\"2024-01-01 00:00:00 +0000\"/>",
      "expected a startDate like 2024-03-10 08:15:02 -0500, found 'yesterday'"
    ),
    (
      "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"one\" sourceName=\"A\" startDate=\"2024-01-01 00:00:00 +0000\" endDate=\"2024-01-01 00:00:00 +0000\"/>",
      "expected a number"
    ),
    (
      "<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"1\" sourceName=\"A\" startDate=\"2024-01-01 00:00:01 +0000\" endDate=\"2024-01-01 00:00:00 +0000\"/>",
      "not before"
    ),
    ("<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"1\"/>", "expected startDate"),
    ("<Record type=HKQuantityTypeIdentifierStepCount/>", "quoted"),
    ("<Record type=\"HKQuantityTypeIdentifierStepCount\"", "ends inside a tag"),
    ("<Workout>", "ends inside an element"),
  ])
  func badInputNamesTheByteOffset(element: String, message: String) throws {
    let text = Self.head + " " + element
    do {
      _ = try readXML(text)
      Issue.record("expected an error")
    } catch let error as InputError {
      #expect(error.path == "export.xml")
      #expect(error.message.contains(message), "\(error.message)")
      guard case .byteOffset(let offset) = error.location else {
        Issue.record("expected a byte offset")
        return
      }
      #expect(offset >= Int64(Self.head.utf8.count))
    }
  }
}

@Suite struct HealthExportCheckingTests {
  static let record =
    #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="A" unit="count" startDate="2024-01-01 00:00:00 +0000" endDate="2024-01-01 00:01:00 +0000" value="200"/>"#

  /// The error reading `HealthExportScannerTests.head`, a space and `body`, with every block size.
  func error(_ body: String) -> InputError? {
    var found: [InputError?] = []
    for blockSize in [7, 64, 1 << 20] {
      do {
        _ = try readXML(HealthExportScannerTests.head + " " + body, blockSize: blockSize)
        found.append(nil)
      } catch let error as InputError {
        found.append(error)
      } catch {
        Issue.record("\(error)")
      }
    }
    #expect(Set(found.map { "\(String(describing: $0))" }).count == 1, "block sizes disagree")
    return found[0]
  }

  /// The byte offset of the first `fragment` in the text `error(_:)` reads.
  func offset(of fragment: String, in body: String) -> Int64 {
    let text = HealthExportScannerTests.head + " " + body
    return Int64(text[..<text.range(of: fragment)!.lowerBound].utf8.count)
  }

  @Test func overflowingValueIsAnErrorLikeText() {
    let recordOffset = Int64(HealthExportScannerTests.head.utf8.count + 1)
    for (value, message) in [
      ("1e400", "expected a number as the value, found '1e400', beyond a Double's range"),
      ("-1e400", "expected a number as the value, found '-1e400', beyond a Double's range"),
      ("abc", "expected a number as the value, found 'abc'"),
    ] {
      let found = error(Self.record.replacingOccurrences(of: "\"200\"", with: "\"\(value)\""))
      #expect(found?.path == "export.xml")
      #expect(found?.location == .byteOffset(recordOffset), "\(value)")
      #expect(found?.message == message)
    }
  }

  @Test func negativeCumulativeValueIsAnError() throws {
    let found = error(Self.record.replacingOccurrences(of: "\"200\"", with: "\"-200\""))
    #expect(found?.location == .byteOffset(Int64(HealthExportScannerTests.head.utf8.count + 1)))
    #expect(
      found?.message == "expected a value of at least 0 for the cumulative type stepCount, found '-200'")
    // A discrete type may be negative (a temperature in °C).
    let cold = Self.record.replacingOccurrences(of: "StepCount", with: "BodyTemperature")
      .replacingOccurrences(of: "\"count\"", with: "\"degC\"").replacingOccurrences(
        of: "\"200\"", with: "\"-1\"")
    #expect(try readXML(HealthExportScannerTests.head + cold + "</HealthData>").count == 1)
  }

  @Test func duplicateAttributeIsAnError() {
    let body = Self.record.replacingOccurrences(of: "value=\"200\"", with: "value=\"200\" value=\"5000\"")
    let found = error(body)
    #expect(found?.location == .byteOffset(offset(of: "value=\"5000\"", in: body)))
    #expect(found?.message == "expected each attribute once in a tag, found a second 'value'")
  }

  @Test func mismatchedEndTagIsAnError() {
    let body = "<Workout><WorkoutEvent></Workout></WorkoutEvent>"
    let found = error(body)
    #expect(found?.location == .byteOffset(offset(of: "</Workout>", in: body)))
    let opened = offset(of: "<WorkoutEvent>", in: body)
    #expect(
      found?.message
        == "expected </WorkoutEvent> closing the element opened at byte \(opened), found </Workout>")
    let root = error(Self.record + "\n</Health>")
    #expect(root?.location == .byteOffset(offset(of: "</Health>", in: Self.record + "\n</Health>")))
    #expect(root?.message.hasPrefix("expected </HealthData> closing the element opened at byte ") == true)
    // Space before the `>` of an end tag is allowed.
    #expect(error(Self.record + "\n</HealthData >") == nil)
  }
}

/// An export whose step records were copied under a second source, as apps that sync Health data do:
/// merged by priority, in either order, the copies add nothing.
@Suite struct DuplicatedSourceExportTests {
  /// A step record: seconds from 2024-01-08 00:00 in New York (UTC−5 in January) and a whole count.
  struct Step {
    var start: Int
    var end: Int
    var value: Int
  }

  /// Five days of walking bouts of one source, in time order: records of 30 s to 10 min, a quarter of
  /// the records instantaneous (half of those at the end of the record before, half on their own), and
  /// one 20-minute record of 120 steps across each midnight.
  static func steps(seed: UInt64) -> [Step] {
    var rng = SplitMix64(state: seed)
    var steps: [Step] = []
    for day in 0..<5 {
      var time = day * 86_400 + 6 * 3600
      while time < day * 86_400 + 22 * 3600 {
        time += Int.random(in: 0..<1800, using: &rng)
        if rng.next() % 4 == 0 {
          let atPreviousEnd = rng.next() % 2 == 0 && steps.last.map { $0.end > day * 86_400 } == true
          let instant = atPreviousEnd ? steps.last!.end : time
          steps.append(Step(start: instant, end: instant, value: Int.random(in: 1...12, using: &rng)))
        } else {
          let end = time + Int.random(in: 30...600, using: &rng)
          steps.append(Step(start: time, end: end, value: Int.random(in: 20...900, using: &rng)))
          time = end
        }
      }
      if day < 4 {
        steps.append(Step(start: (day + 1) * 86_400 - 600, end: (day + 1) * 86_400 + 600, value: 120))
      }
    }
    return steps
  }

  /// `steps` as Apple writes them: `Record` elements with local dates.
  static func records(_ steps: [Step], source: String) -> String {
    func date(_ seconds: Int) -> String {
      let (day, time) = seconds.quotientAndRemainder(dividingBy: 86_400)
      return String(
        format: "2024-01-%02d %02d:%02d:%02d -0500", 8 + day, time / 3600, time / 60 % 60, time % 60)
    }
    return steps.map {
      """
       <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\(source)" unit="count" \
      startDate="\(date($0.start))" endDate="\(date($0.end))" value="\($0.value)"/>

      """
    }.joined()
  }

  /// The daily sums of the export `body` (records), written to a temporary file and read back, with
  /// sources ranked by `order`.
  static func dailySums(_ body: String, order: [String]) throws -> [Double] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duplicated-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("export.xml").path
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_US">
      \(body)</HealthData>

      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let samples = try readAll(HealthExportReader(path: path)).compactMap {
      if case .quantity(let q) = $0 { q } else { nil }
    }
    let start = local(2024, 1, 8, in: newYork)
    let days = IntervalCollection(
      length: .days(1), anchor: start, timeZone: newYork,
      covering: start..<start.advanced(byNanoseconds: 5 * 86_400_000_000_000))
    let query = StatisticsQuery(type: .stepCount, intervals: days, sourcePriority: SourcePriority(order))
    return try query.run(samples).merged.allStatistics.map { $0.sum ?? 0 }
  }

  @Test(arguments: [5, 6] as [UInt64])
  func copiesUnderASecondSourceAddNothing(seed: UInt64) throws {
    let steps = Self.steps(seed: seed)
    #expect(steps.filter { $0.start == $0.end }.count >= 20)
    // Each day's steps, the records across midnight shared half and half.
    var expected = [Double](repeating: 0, count: 5)
    for step in steps {
      let (first, last) = (step.start / 86_400, (step.end - 1) / 86_400)
      if step.start == step.end || first == last {
        expected[step.start / 86_400] += Double(step.value)
      } else {
        expected[first] += Double(step.value) / 2
        expected[last] += Double(step.value) / 2
      }
    }
    let original = Self.records(steps, source: "iPhone")
    let single = try Self.dailySums(original, order: [])
    #expect(single == expected)
    let copied = original + Self.records(steps, source: "Health Sync")
    #expect(try Self.dailySums(copied, order: ["iPhone", "Health Sync"]) == single)
    #expect(try Self.dailySums(copied, order: ["Health Sync", "iPhone"]) == single)
  }
}

import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// Apple Health export.xml reading: a generated 50 MB export held in memory (the DTD preamble, then
// step-count records alternating between an iPhone and an Apple Watch, heart-rate records with and
// without MetadataEntry children, workouts and activity summaries to skip), read record by record with
// HealthExportReader into QuantitySamples. The rate metric counts bytes of XML per CPU second.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .gated(
    rate: .bytesPerSecond, timeUnits: .milliseconds, maxDuration: .seconds(4), maxIterations: 20)

  let export = Array(syntheticExport(megabytes: 50).utf8)
  Benchmark("read a 50 MB export.xml (records to samples)") { benchmark in
    try benchmark.measureRate(.bytesPerSecond, work: export.count) {
      let reader = HealthExportReader(bytes: export, name: "export.xml")
      while let sample = try reader.next() { blackHole(sample) }
    }
  }
}

/// An export shaped like Apple's: about `megabytes` MB of records over consecutive minutes from
/// 2024-03-01 in New York time (offsets as written by a device there).
func syntheticExport(megabytes: Int) -> String {
  var text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
    <!ATTLIST Record
      type CDATA #REQUIRED
      value CDATA #IMPLIED
    >
    ]>
    <HealthData locale="en_US">
     <ExportDate value="2024-04-01 09:00:00 -0400"/>

    """
  func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
  func date(_ minute: Int, _ second: Int) -> String {
    let day = 1 + minute / 1440
    return "2024-03-\(two(day % 28 + 1)) \(two(minute / 60 % 24)):\(two(minute % 60)):\(two(second)) -0500"
  }
  var minute = 0
  let watch =
    #"sourceName="Anna’s Apple Watch" sourceVersion="10.3" device="&lt;&lt;HKDevice: 0x2830c9a90&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;""#
  let phone =
    #"sourceName="Anna’s iPhone" sourceVersion="17.3.1" device="&lt;&lt;HKDevice: 0x2830c9b30&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.3.1&gt;""#
  while text.utf8.count < megabytes * 1_000_000 {
    for k in 0..<200 {
      let m = minute + k
      let source = k % 2 == 0 ? watch : phone
      text +=
        #" <Record type="HKQuantityTypeIdentifierStepCount" \#(source) unit="count" creationDate="\#(date(m, 59))" startDate="\#(date(m, 0))" endDate="\#(date(m, 58))" value="\#(40 + k % 70)"/>"#
        + "\n"
      if k % 3 == 0 {
        text +=
          #" <Record type="HKQuantityTypeIdentifierHeartRate" \#(watch) unit="count/min" creationDate="\#(date(m, 30))" startDate="\#(date(m, 30))" endDate="\#(date(m, 30))" value="\#(60 + k % 50)">"#
          + "\n"
        text += #"  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>"# + "\n </Record>\n"
      }
    }
    text +=
      #" <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="20" durationUnit="min" \#(watch) startDate="\#(date(minute, 0))" endDate="\#(date(minute + 20, 0))">"#
      + "\n"
    text +=
      #"  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="\#(date(minute, 0))" duration="10"/>"#
      + "\n </Workout>\n"
    text +=
      #" <ActivitySummary dateComponents="2024-03-10" activeEnergyBurned="412.5" activeEnergyBurnedUnit="Cal"/>"#
      + "\n"
    minute += 200
  }
  return text + "</HealthData>\n"
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }

import Testing
import VitalsAnalysis
import VitalsIO
import VitalsSimulation
import VitalsTestSupport

/// ``QRSDetector/processOnTwoThreads(_:appendingTo:)`` against ``QRSDetector/process(_:appendingTo:)``.
@Suite struct QRSDetectorThreadsTests {
  /// The beats and gaps of `lead` fed at once on one thread and on two.
  static func both(_ lead: [Float], rate: Double) throws -> (
    one: [Int64], two: [Int64], gaps: [[Range<Int64>]]
  ) {
    var one = try QRSDetector(sampleRate: rate)
    var two = one
    var (a, b): ([Int64], [Int64]) = ([], [])
    lead.withUnsafeBufferPointer { lead in
      one.process(lead, appendingTo: &a)
      two.processOnTwoThreads(lead, appendingTo: &b)
    }
    one.finish(appendingTo: &a)
    two.finish(appendingTo: &b)
    return (a, b, [one.gaps, two.gaps])
  }

  /// The noisiest MIT-BIH records and two AF recordings of CPSC 2021 (the Python package's tests compare
  /// every MIT-BIH record, in a release build).
  @Test(
    "on two threads, MIT-BIH 116, 203, 207 and 208 and two CPSC 2021 records give exactly the one-thread beats",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func sharedRecords() throws {
    var records = 0
    for (folder, names) in [
      ("mitdb", ["203", "207", "208", "116"]), ("cpsc2021", ["data_101_6", "data_8_3"]),
    ] {
      let directory = TestData.sharedData(folder).path
      for name in names {
        let chunk = try #require(try WFDBRecordReader(path: directory + "/" + name).readAll())
        let result = try Self.both(chunk.channels[0], rate: chunk.sampleRate)
        #expect(result.one == result.two, "\(folder)/\(name)")
        #expect(!result.one.isEmpty)
        records += 1
      }
    }
    #expect(records == 6)
  }

  @Test("a lead with gaps gives the one-thread beats and gaps; a short one takes the one-thread path")
  func gaps() throws {
    let rate = 250.0
    var simulator = ECGSimulator(configuration: .ambulatory, duration: 600, sampleRate: rate, seed: 5)
    var lead: [Float] = []
    while let chunk = simulator.next(maxSamples: 65_536) { lead += chunk.signal.channels[0] }
    for range in [49_000..<51_500, 90_000..<90_001, 149_000..<lead.count] {
      for i in range { lead[i] = .nan }
    }
    let result = try Self.both(lead, rate: rate)
    #expect(result.one == result.two)
    #expect(result.gaps[0] == result.gaps[1])
    #expect(result.gaps[0].count == 3)
    #expect(result.one.count > 500)
    let short = try Self.both(Array(lead[..<10_000]), rate: rate)
    #expect(short.one == short.two)
  }
}

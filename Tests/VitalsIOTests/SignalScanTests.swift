import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsIO

@Suite("Whole-record scans")
struct SignalScanTests {
  @Test("counts, invalid samples, range and mean, whatever the chunking")
  func scanStatistics() throws {
    var scan = SignalScan()
    scan.add([1, .nan, -2])
    scan.add([])
    scan.add([.nan])
    scan.add([4])
    #expect(scan.count == 5 && scan.invalidCount == 2)
    #expect(scan.minimum == -2 && scan.maximum == 4)
    #expect(scan.mean == 1)

    var long = SignalScan()
    let values: [Float] = (0..<37).map { $0 % 5 == 0 ? .nan : Float($0) - 20 }
    long.add(values)
    let valid = values.filter(\.isFinite)
    #expect(long.count == 37 && long.invalidCount == 8)
    #expect(long.minimum == valid.min() && long.maximum == valid.max())
    #expect(abs(long.mean! - Double(valid.reduce(0, +)) / Double(valid.count)) < 1e-12)

    var empty = SignalScan()
    empty.add([.nan, .nan])
    #expect(empty.minimum == nil && empty.mean == nil && empty.invalidCount == 2)
  }

  @Test("infinite samples are invalid, in the vector lanes and in the tail")
  func infiniteSamplesAreInvalid() {
    var scan = SignalScan()
    let values: [Float] = (0..<19).map { k in k == 3 ? .infinity : k == 17 ? -.infinity : Float(k) }
    scan.add(values)
    #expect(scan.count == 19 && scan.invalidCount == 2)
    #expect(scan.minimum == 0 && scan.maximum == 18)
    #expect(scan.mean!.isFinite)
    var onlyInfinite = SignalScan()
    onlyInfinite.add([.infinity, -.infinity])
    #expect(onlyInfinite.minimum == nil && onlyInfinite.mean == nil && onlyInfinite.invalidCount == 2)
  }

  @Test("the same scan whatever the chunking")
  func chunkInvariance() {
    var generator = SplitMix64(state: 3)
    let values: [Float] = (0..<1000).map { $0 % 11 == 0 ? .nan : Float.random(in: -1...1, using: &generator) }
    let scans = expectChunkInvariant(count: values.count) {
      SignalScan()
    } feed: { scan, range in
      scan.add(Array(values[range]))
      return [SignalScan]()
    } finish: { scan in
      [scan]
    }
    #expect(scans.first?.count == 1000 && scans.first?.invalidCount == 91)
  }

  @Test("a scan of a WFDB fixture agrees with reading it whole")
  func scanOfARecord() throws {
    let path = TestData.fixture("wfdb/records/fmt212").path
    var reader = try RecordingOpener.open(path: path)
    let scans = try SignalScan.scan(&reader, maxSamples: 7)
    let whole = try #require(try WFDBRecordReader(path: path).readAll())
    for (scan, channel) in zip(scans, whole.channels) {
      let valid = channel.filter { !$0.isNaN }
      #expect(scan.count == Int64(channel.count))
      #expect(scan.invalidCount == Int64(channel.count - valid.count))
      #expect(scan.minimum == valid.min() && scan.maximum == valid.max())
    }
  }
}

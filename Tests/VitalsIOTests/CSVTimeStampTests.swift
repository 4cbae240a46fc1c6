import Testing
import VitalsCore

@testable import VitalsIO

/// CSV text with a `time_s` column at `rate` Hz holding the sample index as its value, each stamp
/// `timeOf(index)` seconds.
private func timedCSV(count: Int, timeOf: (Int) -> Double) -> [UInt8] {
  var text = "time_s,value\n"
  for i in 0..<count { text += "\(timeOf(i)),\(i)\n" }
  return Array(text.utf8)
}

/// The values read (every chunk of `maxSamples`), NaN for missing samples.
private func values(_ bytes: [UInt8], options: CSVOptions = CSVOptions(), maxSamples: Int = 1 << 20) throws
  -> (reader: CSVSignalReader, values: [Float])
{
  let reader = try CSVSignalReader(contents: bytes, options: options)
  let read = try readAll(reader, maxSamples: maxSamples)
  return (reader, read.channels[0])
}

@Suite("CSV time stamps: every stamp checked, gaps are missing data")
struct CSVTimeStampTests {
  @Test("a 10-s gap after row 8192 keeps the samples after it at their times", arguments: [1, 500, 1 << 20])
  func gapAfterFirstBatch(maxSamples: Int) throws {
    // 250 Hz for 130 s of stamps, of which 10 s after row 9000 hold no sample.
    let rate = 250.0
    let before = 9000
    let bytes = timedCSV(count: 30_000) { i in Double(i < before ? i : i + 2500) / rate }
    let (reader, read) = try values(bytes, maxSamples: maxSamples)
    #expect(reader.timing == .uniformTimestamps)
    #expect(reader.chunkSampleRate == rate)
    #expect(read.count == 32_500)
    #expect(read[before - 1] == Float(before - 1))
    #expect(read[before..<before + 2500].allSatisfy { $0.isNaN })
    // The first sample after the gap sits at its own time stamp: index 11 500 ↔ 46 s.
    #expect(read[before + 2500] == Float(before))
    #expect(read.last == 29_999)
    #expect(reader.timeline.gapCount == 1)
    #expect(abs(reader.timeline.longestGapSeconds - 10.004) < 1e-9)
    #expect(abs(reader.timeline.missingSeconds - 10) < 1e-9)
    #expect(reader.timeline.intervalCount == 29_999)
  }

  @Test("a 20-s gap in the first rows neither changes the rate nor is bridged")
  func gapInFirstRows() throws {
    let rate = 250.0
    let bytes = timedCSV(count: 10_000) { i in Double(i < 100 ? i : i + 5000) / rate }
    let (reader, read) = try values(bytes)
    #expect(reader.chunkSampleRate == rate)
    #expect(reader.timing == .uniformTimestamps)
    #expect(read.count == 15_000)
    #expect(read[100..<5100].allSatisfy { $0.isNaN })
    #expect(read[5100] == 100)
  }

  @Test("a dropped sample in uniform stamps is one missing sample")
  func droppedSample() throws {
    let bytes = timedCSV(count: 1000) { i in Double(i < 500 ? i : i + 1) * 0.004 }
    let (reader, read) = try values(bytes)
    #expect(reader.timing == .uniformTimestamps)
    #expect(read.count == 1001)
    #expect(read[500].isNaN && read[501] == 500)
    #expect(reader.timeline.gapCount == 1)
  }

  @Test("irregular stamps: short intervals interpolated, a gap's grid points NaN", arguments: [7, 1 << 20])
  func irregularGap(maxSamples: Int) throws {
    // ~100 Hz with ±2 ms jitter (deterministic), a 5-s hole from 30 s, values linear in time.
    let jitter = [0.0, 0.002, -0.0015, 0.001, -0.002, 0.0005]
    var times = (0..<6000).map { Double($0) / 100 + jitter[$0 % jitter.count] }
    times = times.filter { $0 < 30 || $0 >= 35 }
    var text = "time_s,value\n"
    for t in times { text += "\(t),\(t * 10)\n" }
    let (reader, read) = try values(Array(text.utf8), maxSamples: maxSamples)
    guard case .resampled = reader.timing else {
      Issue.record("expected resampling, got \(reader.timing)")
      return
    }
    let rate = reader.chunkSampleRate
    #expect(abs(rate - 100) < 0.05)
    #expect(reader.timeline.gapCount == 1)
    for (k, value) in read.enumerated() {
      let t = times[0] + Double(k) / rate
      let inGap = t > times.last(where: { $0 < 30 })! && t < times.first(where: { $0 >= 35 })!
      if inGap {
        #expect(value.isNaN, "grid point \(k) at \(t) s lies in the gap")
      } else {
        #expect(abs(Double(value) - t * 10) < 1e-3, "grid point \(k) at \(t) s")
      }
    }
    // The last grid point lies within one interval of the last stamp: nothing shifted.
    #expect(abs(times[0] + Double(read.count - 1) / rate - times.last!) < 1 / rate)
  }

  @Test("stamps going backwards are an error naming the line, after the first batch too")
  func backwards() throws {
    let bytes = timedCSV(count: 10_000) { i in i == 9500 ? 1 : Double(i) * 0.004 }
    let error = inputError { _ = try values(bytes) }
    #expect(error?.location == .field(line: 9502, column: 1))
    #expect(error?.message.contains("backwards") == true)
  }

  @Test("a row written twice in uniform stamps is dropped and counted, in any batch", arguments: [501, 9000])
  func duplicatedRow(row: Int) throws {
    var text = "time_s,value\n"
    for i in 0..<10_000 {
      text += "\(Double(i) * 0.004),\(i)\n" + (i == row ? "\(Double(i) * 0.004),\(i)\n" : "")
    }
    for kernel in CSVRowParser.BlockKernel.available {
      let reader = try CSVSignalReader(contents: Array(text.utf8), kernel: kernel)
      let read = try readAll(reader).channels[0]
      #expect(reader.timing == .uniformTimestamps)
      #expect(reader.chunkSampleRate == 250)
      #expect(read == (0..<10_000).map(Float.init), "\(kernel)")
      #expect(reader.duplicateRowCount == 1)
      #expect(reader.firstDuplicateLine == row + 3)
      #expect(reader.timeline.gapCount == 0)
    }
  }

  @Test(
    "a stamp written late repeats the one before: each row a sample on the uniform grid, in any batch",
    arguments: [[151], [9000], [150, 450, 750, 1050, 9000, 12_000]])
  func lateStamp(rows: [Int]) throws {
    // 200 Hz in epoch milliseconds (a phone's clock); at `rows` the stamp is the previous row's.
    var text = "timestamp_ms,ppg\n"
    for i in 0..<15_000 { text += "\(1_600_000_000_000 + 5 * (rows.contains(i) ? i - 1 : i)),\(i)\n" }
    for kernel in CSVRowParser.BlockKernel.available {
      for maxSamples in [333, 1 << 20] {
        let reader = try CSVSignalReader(contents: Array(text.utf8), kernel: kernel)
        let read = try readAll(reader, maxSamples: maxSamples).channels[0]
        #expect(reader.timing == .uniformTimestamps, "\(kernel)")
        #expect(reader.chunkSampleRate == 200)
        #expect(read == (0..<15_000).map(Float.init), "\(kernel) \(maxSamples)")
        #expect(reader.duplicateRowCount == 0)
        #expect(reader.timeline.gapCount == 0)
        // Each late stamp: an interval 0 and one of two sample intervals, 5 ms off each.
        let jitter = (Double(2 * rows.count) * 0.005 * 0.005 / 14_999).squareRoot()
        #expect(abs(reader.timeline.jitterSeconds - jitter) < 1e-9)
      }
    }
  }

  @Test(
    "a late stamp before a gap leaves the gap one missing sample shorter, in any batch",
    arguments: [300, 9000])
  func lateStampBeforeGap(row: Int) throws {
    // 250 Hz; the stamp of `row` repeats the one before, and the 3 samples after it are missing.
    let bytes = timedCSV(count: 10_000) { i in Double(i == row ? i - 1 : i > row ? i + 3 : i) * 0.004 }
    let (reader, read) = try values(bytes)
    #expect(reader.timing == .uniformTimestamps)
    #expect(read.count == 10_003)
    #expect(read[row] == Float(row))
    #expect(read[row + 1...row + 3].allSatisfy { $0.isNaN })
    #expect(read[row + 4] == Float(row + 1))
    #expect(reader.timeline.gapCount == 1)
    #expect(abs(reader.timeline.missingSeconds - 0.012) < 1e-9)
  }

  @Test("a clock that stalls (a stamp repeated, the next one interval on) is resampled, every row kept")
  func stallingClock() throws {
    // 1 kHz samples on a millisecond clock that stalls for 1 ms every 150 samples.
    var text = "time_ms,ecg\n"
    for i in 0..<20_000 { text += "\(i + 1 - i / 150),\(Double(i) / 1000)\n" }
    let (reader, read) = try values(Array(text.utf8))
    guard case .resampled = reader.timing else {
      Issue.record("expected resampling, got \(reader.timing)")
      return
    }
    // Every row counts in the rate: 150 rows in 149 ms.
    #expect(abs(reader.chunkSampleRate - 150_000 / 149.0) < 0.5)
    #expect(reader.duplicateRowCount == 0)
    #expect(!read.contains { $0.isNaN })
  }

  @Test("past the first batch, a row with the previous stamp and other values is kept, never an error")
  func extraRowLater() throws {
    var text = "time_s,value\n"
    for i in 0..<10_000 {
      text += "\(Double(i) * 0.01),\(i)\n" + (i == 9000 ? "\(Double(i) * 0.01),\(-1)\n" : "")
    }
    for kernel in CSVRowParser.BlockKernel.available {
      let reader = try CSVSignalReader(contents: Array(text.utf8), kernel: kernel)
      let read = try readAll(reader).channels[0]
      #expect(reader.timing == .uniformTimestamps)
      #expect(reader.chunkSampleRate == 100)
      #expect(read.count == 10_001)
      #expect(read[9000...9002] == [9000, -1, 9001], "\(kernel)")
      #expect(reader.duplicateRowCount == 0)
      #expect(reader.timeline.gapCount == 0)
    }
  }

  @Test("a clock coarser than the samples repeats stamps: every row is kept and the file resampled")
  func coarseTimer() throws {
    // 100 Hz samples stamped by a 15.625-ms timer (about a third of the rows repeat a stamp).
    var text = "time_s,value\n"
    for i in 0..<3000 { text += "\((Double(i) * 0.01 / 0.015625).rounded(.down) * 0.015625),\(i)\n" }
    let (reader, read) = try values(Array(text.utf8))
    guard case .resampled = reader.timing else {
      Issue.record("expected resampling, got \(reader.timing)")
      return
    }
    #expect(abs(reader.chunkSampleRate - 100) < 0.5)
    #expect(reader.duplicateRowCount == 0)
    #expect(!read.contains { $0.isNaN })
  }

  @Test("a forward jump longer than a day is an error naming the line")
  func absurdJump() throws {
    let bytes = timedCSV(count: 100) { i in Double(i) * 0.004 + (i >= 50 ? 200_000 : 0) }
    let error = inputError { _ = try values(bytes) }
    #expect(error?.location == .field(line: 52, column: 1))
  }

  @Test("the gap threshold is an option")
  func thresholdOption() throws {
    let jitter = [0.0, 0.002, -0.0015, 0.001]
    var times = (0..<2000).map { Double($0) / 100 + jitter[$0 % jitter.count] }
    times.removeSubrange(1000..<1010)  // a 0.11-s hole
    var text = "time_s,value\n"
    for t in times { text += "\(t),1\n" }
    let strict = try values(Array(text.utf8), options: CSVOptions(gapThreshold: 0.05))
    #expect(strict.reader.timeline.gapCount == 1)
    #expect(strict.values.contains { $0.isNaN })
    let lenient = try values(Array(text.utf8), options: CSVOptions(gapThreshold: 0.5))
    #expect(lenient.reader.timeline.gapCount == 0)
    #expect(!lenient.values.contains { $0.isNaN })
  }
}

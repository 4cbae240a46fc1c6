import Testing
import VitalsCore

@testable import VitalsIO

/// `header`, then `count` rows of a time column (`timeOf(i)`, as written) and a value column.
private func stampedCSV(_ header: String, count: Int = 2000, timeOf: (Int) -> String) -> [UInt8] {
  var text = header + "\n"
  for i in 0..<count { text += "\(timeOf(i)),\(i % 50)\n" }
  return Array(text.utf8)
}

@Suite("CSV layout: units, field counts and values read as what they are")
struct CSVLayoutTests {
  @Test("time units are words of the name, not substrings")
  func unitWords() {
    let cases: [(String, CSVTimeUnit?)] = [
      ("time_msec", .milliseconds), ("Time (msec)", .milliseconds), ("timestamp_usec", .microseconds),
      ("time_nsec", .nanoseconds), ("t_millis", .milliseconds), ("t_micros", .microseconds),
      ("t_nanos", .nanoseconds), ("time [µs]", .microseconds), ("time (ns)", .nanoseconds),
      ("timeMs", .milliseconds), ("stamp_us", .microseconds), ("time_s", .seconds), ("Time [s]", .seconds),
      ("seconds", .seconds), ("elapsed_secs", .seconds), ("timemsec", .milliseconds), ("time", nil),
      ("timestamp", nil), ("Timestamps", nil),
    ]
    for (name, unit) in cases { #expect(CSVLayout.unitFromName(name) == unit, "\(name)") }
  }

  @Test(
    "milli-, micro- and nanosecond stamps named so give the rate they state",
    arguments: [
      ("time_msec", 1000.0, 1.0), ("Time (msec)", 100, 10), ("timestamp_usec", 100, 10_000),
      ("time_nsec", 100, 10_000_000), ("t_millis", 250, 4),
    ])
  func namedUnits(name: String, rate: Double, step: Double) throws {
    let reader = try CSVSignalReader(
      contents: stampedCSV("\(name),ecg") { "\(Int64(Double($0) * step))" }, name: "named.csv")
    #expect(reader.chunkSampleRate == rate)
    #expect(reader.timing == .uniformTimestamps)
    #expect(try readAll(reader).channels[0].count == 2000)
  }

  @Test("a unit the name states that gives an unsupported rate is an error naming the header line")
  func contradictoryName() {
    // Nanosecond stamps 10 ms apart under a name that says seconds.
    let bytes = stampedCSV("pad,x\ntime_s,ecg") { "\(Int64($0) * 10_000_000)" }
    let error = inputError { _ = try CSVSignalReader(contents: bytes, name: "s.csv") }
    #expect(error?.path == "s.csv")
    #expect(error?.location == .line(2), "\(String(describing: error))")
    #expect(error?.message.contains("time column \"time_s\" read in s, as its name states") == true)
    #expect(error?.message.contains("pass --time-unit ns") == true, "\(String(describing: error))")
    // The option overrides the name.
    let forced = try? CSVSignalReader(contents: bytes, options: CSVOptions(timeUnit: .nanoseconds))
    #expect(forced?.chunkSampleRate == 100)
  }

  @Test("every line has the header's field count: an error naming the line and both counts")
  func fieldCounts() throws {
    let extra = Array("time,ecg\n0.000,1.5,7\n0.004,1.6,8\n0.008,1.7,9\n".utf8)
    let error = inputError { _ = try readAll(CSVSignalReader(contents: extra, name: "extra.csv")) }
    #expect(error?.path == "extra.csv")
    #expect(error?.location == .line(2))
    #expect(error?.message == "expected 2 fields, as the header (line 1) names, found 3")
    // A decimal comma under a comma delimiter splits every number in two: refused, rate or not.
    let ambiguous = Array("time,ppg\n0,00,0,0\n0,01,75,327\n0,02,150,226\n".utf8)
    for options in [CSVOptions(), CSVOptions(sampleRate: 100)] {
      let split = inputError { _ = try readAll(CSVSignalReader(contents: ambiguous, options: options)) }
      #expect(split?.location == .line(2))
      #expect(split?.message == "expected 2 fields, as the header (line 1) names, found 4")
    }
    // Fewer fields than the header names, on the first data line or later, by both kernels.
    let fewer = inputError { _ = try CSVSignalReader(contents: Array("time,a,b\n0,1\n1,2\n".utf8)) }
    #expect(fewer?.message == "expected 3 fields, as the header (line 1) names, found 2")
    var rows = (0..<3000).map { "\(Double($0) * 0.004),\($0)" }
    rows[2000] += ",5,6"
    let later = Array(("time,ecg\n" + rows.joined(separator: "\n") + "\n").utf8)
    for kernel in CSVRowParser.BlockKernel.available {
      let error = inputError { _ = try readAll(CSVSignalReader(contents: later, kernel: kernel)) }
      #expect(error?.location == .field(line: 2002, column: 3), "\(kernel)")
      #expect(error?.message == "expected 2 fields, as the header (line 1) names, found 4", "\(kernel)")
    }
    // A trailing delimiter (an empty last field), on the rows, the header or both, is no column.
    for text in ["a,b\n1,2,\n3,4,\n", "a,b,\n1,2\n3,4\n", "a,b,\n1,2,\n3,4,\n"] {
      let reader = try CSVSignalReader(contents: Array(text.utf8), options: CSVOptions(sampleRate: 1))
      #expect(reader.signals.map(\.name) == ["a", "b"], "\(text)")
      #expect(try readAll(reader).channels == [[1, 3], [2, 4]])
    }
  }

  @Test("a trailing delimiter on the header and every row (Shimmer) is no column; a value there is an error")
  func trailingDelimiterEverywhere() throws {
    let rows = (0..<3000).map { "\(Double($0) * 0.004),\($0)," }
    let text = "time,ecg,\n" + rows.joined(separator: "\n") + "\n"
    let reader = try CSVSignalReader(contents: Array(text.utf8))
    #expect(reader.signals.map(\.name) == ["ecg"])
    #expect(reader.chunkSampleRate == 250)
    #expect(try readAll(reader).channels == [(0..<3000).map(Float.init)])
    // A value in that column past the lines examined is one field too many.
    var filled = rows
    filled[2000] += "7"
    let later = Array(("time,ecg,\n" + filled.joined(separator: "\n") + "\n").utf8)
    for kernel in CSVRowParser.BlockKernel.available {
      let error = inputError { _ = try readAll(CSVSignalReader(contents: later, kernel: kernel)) }
      #expect(error?.location == .field(line: 2002, column: 3), "\(kernel)")
      #expect(error?.message == "expected 2 fields, as the header (line 1) names, found 3", "\(kernel)")
    }
    // A named last column, or one with values, stays.
    let rate = CSVOptions(sampleRate: 1)
    let named = try CSVSignalReader(contents: Array("a,b,c\n1,2,\n3,4,\n".utf8), options: rate)
    #expect(named.signals.map(\.name) == ["a", "b", "c"])
    let valued = try CSVSignalReader(contents: Array("a,b,\n1,2,\n3,4,5\n".utf8), options: rate)
    #expect(valued.signals.map(\.name) == ["a", "b", "col2"])
  }

  @Test("a header one name short over row numbers (R's write.table) is refused, the message says why")
  func rowNamesWithoutHeader() {
    let rows = (1...100).map { "\"\($0)\",\(Double($0) * 0.004),\(Double($0) / 3)" }
    let text = "\"time\",\"ecg\"\n" + rows.joined(separator: "\n") + "\n"
    let error = inputError { _ = try CSVSignalReader(contents: Array(text.utf8), name: "r.csv") }
    #expect(error?.location == .line(2))
    #expect(
      error?.message
        == "expected 2 fields, as the header (line 1) names, found 3 (the header may lack a name for the "
        + "first column, row names: R's write.table writes them so without col.names = NA)")
  }

  @Test("the rate error, not the unit's, for stamps in their stated unit slower than 1 Hz")
  func slowerThanOneHertz() {
    let bytes = stampedCSV("time_s,hr", count: 100) { "\($0 * 2)" }
    let error = inputError { _ = try CSVSignalReader(contents: bytes) }
    #expect(error?.location == .line(2), "\(String(describing: error))")
    #expect(error?.message.contains("interval gives 0.5 Hz") == true, "\(String(describing: error))")
    #expect(error?.message.contains("--time-unit") == false)
  }

  @Test("a units row with units the list lacks is one when its time column's unit is")
  func unlistedUnits() throws {
    let text =
      "Timestamp,ECG,GSR,tilt\nms,mV,no units,kOhms\n"
      + (0..<500).map { "\($0 * 4),\($0),\(-$0),1" }.joined(separator: "\n") + "\n"
    let reader = try CSVSignalReader(contents: Array(text.utf8))
    #expect(reader.timeColumnName == "Timestamp")
    #expect(reader.signals.map(\.name) == ["ECG", "GSR", "tilt"])
    #expect(reader.signals.map(\.unit) == ["mV", "no units", "kOhms"])
    #expect(reader.chunkSampleRate == 250)
    #expect(reader.preambleLineCount == 0)
    let anchored = try CSVSignalReader(contents: stampedCSV("time,angle\n[s],grad", count: 100) { "\($0)" })
    #expect(anchored.signals.map(\.unit) == ["grad"])
    // A header under a preamble line of as many fields is not a units row.
    for preamble in ["Subject,John", "Patient,Ward", "time,mV"] {
      let header = try CSVSignalReader(
        contents: stampedCSV("\(preamble)\ntime,ecg", count: 100) { "\(Double($0) / 100)" })
      #expect(header.preambleLineCount == 1, "\(preamble)")
      #expect(header.signals.map(\.name) == ["ecg"], "\(preamble)")
      #expect(header.signals.map(\.unit) == [""], "\(preamble)")
    }
    // Nor is a line with a number, or long text, beside the time unit: it is the header.
    for second in ["s,5", "s,a long description of it"] {
      let reader = try CSVSignalReader(
        contents: stampedCSV("time,ecg\n\(second)", count: 100) { "\($0)" },
        options: CSVOptions(sampleRate: 100))
      #expect(reader.preambleLineCount == 1, "\(second)")
      #expect(reader.availableSignals.allSatisfy { $0.unit.isEmpty }, "\(second)")
    }
  }

  @Test("a units row under the header gives the channels' units and the time unit")
  func unitsRow() throws {
    let text =
      "time,ppg,acc_x\ns,mV,g\n"
      + (0..<500).map { "\(Double($0) / 100),\($0),\(-$0)" }.joined(separator: "\n")
    let reader = try CSVSignalReader(contents: Array((text + "\n").utf8))
    #expect(reader.timeColumnName == "time")
    #expect(reader.signals.map(\.name) == ["ppg", "acc_x"])
    #expect(reader.signals.map(\.unit) == ["mV", "g"])
    #expect(reader.chunkSampleRate == 100)
    #expect(reader.preambleLineCount == 0)
    #expect(try readAll(reader).channels[1].prefix(2) == [0, -1])
    // Without a time column, with a rate: the names are the header's, not the units'.
    let fixed = try CSVSignalReader(
      contents: Array("# device X\necg,resp\n[mV],(a.u.)\n1,2\n3,4\n".utf8),
      options: CSVOptions(sampleRate: 10))
    #expect(fixed.signals.map(\.name) == ["ecg", "resp"])
    #expect(fixed.signals.map(\.unit) == ["[mV]", "(a.u.)"])
    #expect(fixed.preambleLineCount == 1)
    // The units row states the time unit, over the magnitudes of the stamps.
    let ms = try CSVSignalReader(contents: stampedCSV("stamp,ecg\nms,mV", count: 100) { "\($0 * 2)" })
    #expect(ms.chunkSampleRate == 500)
    #expect(ms.signals.map(\.unit) == ["mV"])
  }

  @Test("hexadecimal and out-of-range numbers are errors naming the line and field, by both kernels")
  func refusedNumbers() throws {
    for (bad, message) in [
      ("0x10", "expected a number, found \"0x10\""),
      ("1e39", "expected a number within ±3.4028235e+38 (samples are 32-bit floats), found \"1e39\""),
      ("-1e39", "expected a number within ±3.4028235e+38 (samples are 32-bit floats), found \"-1e39\""),
    ] {
      for row in [5, 2500] {
        var rows = (0..<3000).map { "\(Double($0) * 0.01),\($0)" }
        rows[row] = "\(Double(row) * 0.01),\(bad)"
        let text = Array(("time,ppg\n" + rows.joined(separator: "\n") + "\n").utf8)
        for kernel in CSVRowParser.BlockKernel.available {
          let error = inputError { _ = try readAll(CSVSignalReader(contents: text, kernel: kernel)) }
          #expect(error?.location == .field(line: row + 2, column: 2), "\(bad) \(row) \(kernel)")
          #expect(error?.message == message, "\(bad) \(row) \(kernel)")
        }
      }
    }
    let kept = try CSVSignalReader(
      contents: Array("v\n3.4028234e38\n-inf\n123456789.123\n".utf8), options: CSVOptions(sampleRate: 1))
    #expect(try readAll(kept).channels[0] == [.greatestFiniteMagnitude, -.infinity, 123_456_792])
  }

  @Test(
    "a file without data rows names the first field that is not data",
    arguments: [
      (
        "time,ppg\n25/12/2023 10:00:00,1.5\n25/12/2023 10:00:01,1.6\n", 1, "25/12/2023 10:00:00", "yyyy-mm-dd"
      ),
      ("time,ppg\n0.00,\"1,5\"\n0.01,\"1,6\"\n", 2, "1,5", "decimal comma"),
      ("time,ppg,activity\n0.00,1.5,walking\n0.01,1.6,walking\n", 3, "walking", nil),
    ])
  func noDataRows(text: String, column: Int, found: String, hint: String?) {
    let error = inputError { _ = try CSVSignalReader(contents: Array(text.utf8), name: "text.csv") }
    #expect(error?.path == "text.csv")
    #expect(error?.location == .field(line: 2, column: column))
    #expect(
      error?.message.hasPrefix("expected a number, a date-time or an empty field, found \"\(found)\"") == true
    )
    if let hint { #expect(error?.message.contains(hint) == true, "\(String(describing: error))") }
  }
}

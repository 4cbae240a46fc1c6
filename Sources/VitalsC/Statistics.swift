import Synchronization
import Vitals
import VitalsCLI

/// The statistics partial of the samples in `inputs` for the query of `options` (`Stats.parse(inputs +
/// options)` and its `partialStatistics(note:)`), as the bytes `vitals stats --partial FILE` writes;
/// `*bytes` (`*length` long) is the caller's.
@_cdecl("vitals_stats_partial")
public func vitals_stats_partial(
  _ inputs: UnsafePointer<UnsafePointer<CChar>?>?, _ inputCount: Int32,
  _ options: UnsafePointer<UnsafePointer<CChar>?>?, _ optionCount: Int32,
  _ bytes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<Int64>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let (bytesOut, lengthOut) = (try out(bytes, "bytes"), try out(length, "length"))
    let files = try strings(inputs, count: inputCount, "inputs")
    if let k = files.indices.first(where: { files[$0].isEmpty || files[$0] == "-" }) {
      throw CallFailure.argument("inputs[\(k)] must name a file, got '\(files[k])'")
    }
    let words = try strings(options, count: optionCount, "options")
    if words.contains(where: { $0 == "--partial" || $0.hasPrefix("--partial=") }) {
      throw CallFailure.argument("options: --partial does not apply; the partial is returned")
    }
    let stats = try parse(Stats.self, files + words)
    let encoded = try stats.partialStatistics(note: { _ in }).encoded()
    bytesOut.pointee = mallocBuffer(encoded)
    lengthOut.pointee = Int64(encoded.count)
  }
}

/// Merges `count` partials of one query (`Merge.merged(_:names:)`, as `vitals merge` does; partial `i` is
/// named `partials[i]` in errors) into the bytes of one partial; `*bytes` (`*length` long) is the
/// caller's.
@_cdecl("vitals_stats_merge")
public func vitals_stats_merge(
  _ partials: UnsafePointer<UnsafePointer<UInt8>?>?, _ lengths: UnsafePointer<Int64>?, _ count: Int32,
  _ bytes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<Int64>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let (bytesOut, lengthOut) = (try out(bytes, "bytes"), try out(length, "length"))
    guard count >= 1 else { throw CallFailure.argument("count must be 1 or more, got \(count)") }
    let starts = try pointers(partials, count: Int64(count), "partials")
    let sizes = try pointers(lengths, count: Int64(count), "lengths")
    let names = starts.indices.map { "partials[\($0)]" }
    var parts: [StatisticsPartial] = []
    for k in starts.indices {
      parts.append(try partial(try pointers(starts[k], count: sizes[k], names[k]), name: names[k]))
    }
    let encoded = try Merge.merged(parts, names: names, query: mergedQuery).encoded()
    bytesOut.pointee = mallocBuffer(encoded)
    lengthOut.pointee = Int64(encoded.count)
  }
}

/// The `vitals stats` commands and zones of the queries merged so far in this process, by the partials'
/// query options and zone (at most 64): a tree of merges asks for the same query at every node, and
/// parsing it (about 0.8 ms) costs more than merging a few small partials.
private let mergedQueries = Mutex<[[String]: (Stats, TimeZoneRules)]>([:])

/// `Merge.query(of:format:inputs:)` for `vitals_stats_merge`, from ``mergedQueries`` when known there,
/// with `inputs` as the command's inputs.
func mergedQuery(of partial: StatisticsPartial, inputs: [String]) throws(InputError) -> (
  Stats, TimeZoneRules
) {
  let key = Merge.options(of: partial) + [partial.timeZone]
  var query = try mergedQueries.withLock { known throws(InputError) in
    if let query = known[key] { return query }
    let query = try Merge.query(of: partial, format: .csv, inputs: inputs)
    if known.count >= 64 { known.removeAll() }
    known[key] = query
    return query
  }
  query.0.inputs = inputs
  return query
}

/// The statistics table of a partial (`Merge.table(_:format:name:)`, as `vitals stats` prints it) in
/// `format` ("csv" or "json"); `*text` is the caller's.
@_cdecl("vitals_stats_table")
public func vitals_stats_table(
  _ partial: UnsafePointer<UInt8>?, _ length: Int64, _ format: UnsafePointer<CChar>?,
  _ text: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let result = try out(text, "text")
    let name = try string(format, "format")
    guard let format = Stats.OutputFormat(rawValue: name) else {
      throw CallFailure.argument("format must be csv or json, got '\(name)'")
    }
    let content = try VitalsC.partial(try pointers(partial, count: length, "partial"), name: "partial")
    result.pointee = mallocString(try Merge.table(content, format: format, name: "partial"))
  }
}

/// The partial `bytes` hold (`StatisticsPartial(bytes:name:)`); an input error naming `name` when they
/// are not one of this version.
private func partial(_ bytes: UnsafeBufferPointer<UInt8>, name: String) throws(CallFailure)
  -> StatisticsPartial
{
  do {
    return try StatisticsPartial(bytes: Array(bytes), name: name)
  } catch {
    throw .input(error.description)
  }
}

import VitalsCore
import VitalsIO
import VitalsSupport

/// Reads the samples of an Apple Health `export.xml` as a stream, in constant memory.
///
/// A hand-written scanner over blocks of the file (1 MiB, the block of VitalsIO's line buffer; a block
/// grows only for a longer tag, up to 64 MiB): no DOM, no Foundation `XMLParser`. It reads:
/// - `Record` elements at the top level and inside `Correlation` elements: types
///   `HKQuantityTypeIdentifier…` become ``QuantitySample``s (value, unit, `sourceName`, `device`,
///   `startDate`, `endDate`), types `HKCategoryTypeIdentifier…` become ``CategorySample``s (`value`
///   kept as text); their `MetadataEntry key= value=` children become metadata. Records of other
///   types (`HKDataType…`) are counted in ``skippedRecords``.
/// - attributes in any order, with the entities `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and numeric
///   `&#…;` / `&#x…;` references decoded;
/// - the XML declaration, the DTD (internal subset included), comments, CDATA and processing
///   instructions, skipped; `Workout`, `ActivitySummary`, `ClinicalRecord` and every other element
///   skipped with all they contain (`HeartRateVariabilityMetadataList` inside a record included).
///
/// Dates are `yyyy-MM-dd HH:mm:ss ±hhmm`, as Apple writes them (ISO 8601 forms are accepted too).
/// Bad input — an unterminated tag, an attribute given twice in one tag, an end tag that does not
/// close the innermost open element, a missing or malformed date or value (one beyond a `Double`'s
/// range included, and a negative value of a cumulative type, which HealthKit refuses), a record
/// ending before it starts, a file ending inside an element — throws `InputError` naming the file
/// and the byte offset of the tag. Not thread-safe: one reader per thread.
public final class HealthExportReader {
  private let block: LineBuffer
  /// The unread bytes of `block`: `base[position..<end]`, `base[0]` at input offset `storageOffset`.
  private var base: UnsafePointer<UInt8>
  private var position = 0
  private var end = 0
  private var storageOffset: Int64 = 0
  /// Depth of open elements inside a skipped element (0: not skipping).
  private var skipDepth = 0
  /// Depth of open elements, the root included.
  private var depth = 0
  /// The depth of the open `Correlation`, or 0.
  private var correlationDepth = 0
  /// A record with children, waiting for its end tag.
  private var pending: HealthSample?
  private var pendingOffset: Int64 = 0
  private var strings = StringCache()
  /// The names of the open elements, end to end, and per element where its name ends in `openNames`
  /// and the byte offset of its start tag (end tags must match them).
  private var openNames: [UInt8] = []
  private var openElements: [(nameEnd: Int, offset: Int64)] = []

  /// Records of types that are neither quantities nor categories (`HKDataType…`), skipped so far.
  public private(set) var skippedRecords = 0

  /// Opens the export at `path` (`-`: standard input).
  public convenience init(path: String) throws(InputError) {
    try self.init(input: ByteInput(path: path))
  }

  /// Reads an export held in memory; `name` stands for the path in errors. `blockSize` (bytes) is the
  /// initial size of the block the scanner reads into (tests use small blocks to cut every tag).
  public convenience init(bytes: [UInt8], name: String, blockSize: Int = 1 << 20) {
    self.init(input: ByteInput(bytes: bytes, name: name), blockSize: blockSize)
  }

  private init(input: ByteInput, blockSize: Int = 1 << 20) {
    block = LineBuffer(input: input, capacity: blockSize)
    base = block.unread.bytes.baseAddress!
  }

  /// The next sample in file order, or `nil` at the end of the export.
  public func next() throws(InputError) -> HealthSample? {
    while true {
      guard position < end, let hit = memchr(base + position, 0x3C, end - position) else {
        position = end
        if try !refill() {
          if pending != nil || depth > 0 {
            throw error(at: storageOffset + Int64(end), "the file ends inside an element")
          }
          return nil
        }
        continue
      }
      position = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
      switch try scanTag(base) {
      case .incomplete:
        if try !refill() { throw error(at: storageOffset + Int64(position), "the file ends inside a tag") }
      case .done:
        continue
      case .sample(let sample):
        return sample
      }
    }
  }

  /// Keeps the unread bytes from `position`, reads more; returns whether bytes were added.
  private func refill() throws(InputError) -> Bool {
    block.consume(position)
    let more = try block.readMore()
    let unread = block.unread
    base = unread.bytes.baseAddress!
    position = 0
    end = unread.bytes.count
    storageOffset = unread.offset
    return more
  }

  private enum Step {
    case incomplete
    case done
    case sample(HealthSample)
  }

  private func error(at offset: Int64, _ message: String) -> InputError {
    InputError(path: block.input.path, location: .byteOffset(offset), message)
  }

  /// Index of the first occurrence of `pattern` at or after `from`, before `end`.
  private func find(_ pattern: StaticString, from: Int, _ base: UnsafePointer<UInt8>) -> Int? {
    let needle = pattern.utf8Start
    let count = pattern.utf8CodeUnitCount
    var i = from
    while i + count <= end {
      guard let hit = memchr(base + i, Int32(needle[0]), end - count + 1 - i) else { return nil }
      let k = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
      if memcmp(base + k, needle, count) == 0 { return k }
      i = k + 1
    }
    return nil
  }

  /// Scans the markup at `position` (a `<`), advancing past it when it is complete.
  private func scanTag(_ base: UnsafePointer<UInt8>) throws(InputError) -> Step {
    let start = position
    guard start + 1 < end else { return .incomplete }
    let second = base[start + 1]
    if second == 0x3F {  // <? … ?>
      guard let close = find("?>", from: start + 2, base) else { return .incomplete }
      position = close + 2
      return .done
    }
    if second == 0x21 {  // <!-- -->, <![CDATA[ ]]>, <!DOCTYPE … [ … ]>
      guard start + 4 <= end else { return .incomplete }
      if base[start + 2] == 0x2D && base[start + 3] == 0x2D {
        guard let close = find("-->", from: start + 4, base) else { return .incomplete }
        position = close + 3
      } else if base[start + 2] == 0x5B {
        guard let close = find("]]>", from: start + 3, base) else { return .incomplete }
        position = close + 3
      } else {
        guard let close = declarationEnd(from: start + 2, base) else { return .incomplete }
        position = close + 1
      }
      return .done
    }
    if second == 0x2F {  // </name>
      guard let close = memchr(base + start, 0x3E, end - start) else { return .incomplete }
      let closeIndex = UnsafePointer(close.assumingMemoryBound(to: UInt8.self)) - base
      var nameEnd = closeIndex
      while nameEnd > start + 2, Self.isSpace(base[nameEnd - 1]) { nameEnd -= 1 }
      let name = UnsafeBufferPointer(start: base + start + 2, count: nameEnd - start - 2)
      try closeElement(name, offset: storageOffset + Int64(start))
      position = closeIndex + 1
      return try endElement(name: name)
    }
    guard let tag = try parseStartTag(base, at: start) else { return .incomplete }
    position = tag.end
    if !tag.selfClosing {
      openNames.append(
        contentsOf: UnsafeBufferPointer(start: base + tag.name.lowerBound, count: tag.name.count))
      openElements.append((openNames.count, storageOffset + Int64(start)))
    }
    return try startElement(tag, base: base, offset: storageOffset + Int64(start))
  }

  /// Checks that the end tag at `offset` closes the innermost open element (by `name`) and pops it.
  private func closeElement(_ name: UnsafeBufferPointer<UInt8>, offset: Int64) throws(InputError) {
    guard let open = openElements.popLast() else {
      throw error(at: offset, "an end tag without a start tag")
    }
    let nameStart = openElements.last?.nameEnd ?? 0
    let matches = openNames[nameStart..<open.nameEnd].elementsEqual(name)
    guard matches else {
      let expected = String(decoding: openNames[nameStart..<open.nameEnd], as: UTF8.self)
      throw error(
        at: offset,
        "expected </\(expected)> closing the element opened at byte \(open.offset), found </\(String(decoding: name, as: UTF8.self))>"
      )
    }
    openNames.removeSubrange(nameStart...)
  }

  /// The `>` closing a declaration (`<!DOCTYPE …>`), skipping quoted text and a `[…]` internal subset.
  private func declarationEnd(from: Int, _ base: UnsafePointer<UInt8>) -> Int? {
    var i = from
    var brackets = 0
    var quote: UInt8 = 0
    while i < end {
      let c = base[i]
      if quote != 0 {
        if c == quote { quote = 0 }
      } else if c == 0x22 || c == 0x27 {
        quote = c
      } else if c == 0x5B {
        brackets += 1
      } else if c == 0x5D {
        brackets -= 1
      } else if c == 0x3E && brackets <= 0 {
        return i
      }
      i += 1
    }
    return nil
  }

  /// A start tag: its name, its attributes (byte ranges in the buffer) and whether it closes itself.
  private struct StartTag {
    var name: Range<Int>
    var attributes: [(name: Range<Int>, value: Range<Int>)]
    var selfClosing: Bool
    var end: Int
  }

  private var attributeScratch: [(name: Range<Int>, value: Range<Int>)] = []

  /// Whether `c` is XML white space (space, tab, line feed, carriage return).
  @inline(__always) private static func isSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
  }

  /// Parses `<name attr="v" …>` or `…/>` at `start`; `nil` when the buffer ends first.
  private func parseStartTag(_ base: UnsafePointer<UInt8>, at start: Int) throws(InputError) -> StartTag? {
    @inline(__always) func isNameEnd(_ c: UInt8) -> Bool {
      Self.isSpace(c) || c == 0x3E || c == 0x2F || c == 0x3D
    }
    var i = start + 1
    while i < end && !isNameEnd(base[i]) { i += 1 }
    let name = (start + 1)..<i
    guard !name.isEmpty || i >= end else {
      throw error(at: storageOffset + Int64(start), "expected an element name")
    }
    attributeScratch.removeAll(keepingCapacity: true)
    while true {
      while i < end && Self.isSpace(base[i]) { i += 1 }
      guard i < end else { return nil }
      let c = base[i]
      if c == 0x3E {
        return StartTag(name: name, attributes: attributeScratch, selfClosing: false, end: i + 1)
      }
      if c == 0x2F {
        guard i + 1 < end else { return nil }
        guard base[i + 1] == 0x3E else {
          throw error(at: storageOffset + Int64(i), "expected '>' after '/' in a tag")
        }
        return StartTag(name: name, attributes: attributeScratch, selfClosing: true, end: i + 2)
      }
      let nameStart = i
      while i < end && !isNameEnd(base[i]) { i += 1 }
      let attributeName = nameStart..<i
      while i < end && Self.isSpace(base[i]) { i += 1 }
      guard i < end else { return nil }
      guard base[i] == 0x3D, !attributeName.isEmpty else {
        throw error(at: storageOffset + Int64(i), "expected name=\"value\" in a tag")
      }
      i += 1
      while i < end && Self.isSpace(base[i]) { i += 1 }
      guard i < end else { return nil }
      let quote = base[i]
      guard quote == 0x22 || quote == 0x27 else {
        throw error(at: storageOffset + Int64(i), "expected a quoted attribute value")
      }
      guard let close = memchr(base + i + 1, Int32(quote), end - i - 1) else { return nil }
      let closeIndex = UnsafePointer(close.assumingMemoryBound(to: UInt8.self)) - base
      for earlier in attributeScratch
      where earlier.name.count == attributeName.count
        && memcmp(base + earlier.name.lowerBound, base + attributeName.lowerBound, attributeName.count) == 0
      {
        throw error(
          at: storageOffset + Int64(nameStart),
          "expected each attribute once in a tag, found a second '\(fieldText(base + nameStart, count: attributeName.count))'"
        )
      }
      attributeScratch.append((attributeName, (i + 1)..<closeIndex))
      i = closeIndex + 1
    }
  }

  private func nameIs(_ range: Range<Int>, _ literal: StaticString, _ base: UnsafePointer<UInt8>) -> Bool {
    range.count == literal.utf8CodeUnitCount
      && memcmp(base + range.lowerBound, literal.utf8Start, range.count) == 0
  }

  private func startElement(_ tag: StartTag, base: UnsafePointer<UInt8>, offset: Int64) throws(InputError)
    -> Step
  {
    if skipDepth > 0 {
      if !tag.selfClosing { skipDepth += 1 }
      return .done
    }
    let isRecord = nameIs(tag.name, "Record", base)
    let topLevel = depth == 1 || (correlationDepth > 0 && depth == correlationDepth)
    if pending != nil {
      // Inside a record: metadata entries are read, every other child is skipped.
      if nameIs(tag.name, "MetadataEntry", base) {
        var key: String?
        var value: String?
        for attribute in tag.attributes {
          if nameIs(attribute.name, "key", base) { key = cachedText(attribute.value, base) }
          if nameIs(attribute.name, "value", base) { value = text(attribute.value, base) }
        }
        if let key, let value { addMetadata(key, value) }
      }
      if !tag.selfClosing { skipDepth = 1 }
      return .done
    }
    if depth == 0 {
      if !tag.selfClosing { depth = 1 }
      return .done
    }
    if isRecord && topLevel {
      guard let sample = try record(tag, base: base, offset: offset) else {
        if !tag.selfClosing { skipDepth = 1 }
        return .done
      }
      if tag.selfClosing { return .sample(sample) }
      pending = sample
      pendingOffset = offset
      depth += 1
      return .done
    }
    if nameIs(tag.name, "Correlation", base) && depth == 1 {
      if !tag.selfClosing {
        depth += 1
        correlationDepth = depth
      }
      return .done
    }
    if !tag.selfClosing { skipDepth = 1 }
    return .done
  }

  private func endElement(name: UnsafeBufferPointer<UInt8>) throws(InputError) -> Step {
    if skipDepth > 0 {
      skipDepth -= 1
      return .done
    }
    guard depth > 0 else {
      throw error(at: storageOffset + Int64(position), "an end tag without a start tag")
    }
    if depth == correlationDepth { correlationDepth = 0 }
    depth -= 1
    if let sample = pending {
      pending = nil
      return .sample(sample)
    }
    return .done
  }

  private func addMetadata(_ key: String, _ value: String) {
    switch pending {
    case .quantity(var sample):
      sample.metadata[key] = value
      pending = .quantity(sample)
    case .category(var sample):
      sample.metadata[key] = value
      pending = .category(sample)
    case .heartbeatSeries, .electrocardiogram, nil: break
    }
  }

  /// The sample of a `Record` tag, or `nil` for a record type that is neither a quantity nor a category.
  private func record(_ tag: StartTag, base: UnsafePointer<UInt8>, offset: Int64) throws(InputError)
    -> HealthSample?
  {
    var type: Range<Int>?
    var source: Range<Int>?
    var device: Range<Int>?
    var unit: Range<Int>?
    var startDate: Range<Int>?
    var endDate: Range<Int>?
    var value: Range<Int>?
    for attribute in tag.attributes {
      let name = attribute.name
      switch name.count {
      case 4:
        if nameIs(name, "type", base) {
          type = attribute.value
        } else if nameIs(name, "unit", base) {
          unit = attribute.value
        }
      case 5:
        if nameIs(name, "value", base) { value = attribute.value }
      case 6:
        if nameIs(name, "device", base) { device = attribute.value }
      case 7:
        if nameIs(name, "endDate", base) { endDate = attribute.value }
      case 9:
        if nameIs(name, "startDate", base) { startDate = attribute.value }
      case 10:
        if nameIs(name, "sourceName", base) { source = attribute.value }
      default: break
      }
    }
    guard let type else { throw error(at: offset, "expected a type attribute in a Record") }
    let (kind, typeName) = strings.kind(of: type, base)
    if kind == .other {
      skippedRecords += 1
      return nil
    }
    guard let startDate, let endDate else {
      throw error(at: offset, "expected startDate and endDate attributes in a Record")
    }
    let start = try date(startDate, base, offset: offset, name: "startDate")
    let finish = try date(endDate, base, offset: offset, name: "endDate")
    guard start <= finish else { throw error(at: offset, "expected endDate not before startDate") }
    let sourceName = source.map { cachedText($0, base) } ?? ""
    let deviceName = device.map { cachedText($0, base) }
    if kind == .category {
      return .category(
        CategorySample(
          type: CategoryType(rawValue: typeName), value: value.map { text($0, base) }, start: start,
          end: finish, source: sourceName, device: deviceName))
    }
    guard let value, let unit else {
      throw error(at: offset, "expected value and unit attributes in a quantity Record")
    }
    let quantityType = QuantityType(rawValue: typeName)
    return .quantity(
      QuantitySample(
        type: quantityType, value: try quantity(value, of: quantityType, base, offset: offset),
        unit: HealthUnit(cachedText(unit, base)), start: start, end: finish, source: sourceName,
        device: deviceName))
  }

  /// A quantity record's `value`: a finite decimal number, not negative for a cumulative type
  /// (HealthKit refuses negative step counts, distances, energies).
  private func quantity(
    _ range: Range<Int>, of type: QuantityType, _ base: UnsafePointer<UInt8>, offset: Int64
  )
    throws(InputError) -> Double
  {
    // The text is made only for a message or a number the fast path cannot convert: one closure per
    // call would allocate a context per record.
    guard let number = DecimalNumber.scan(base + range.lowerBound, count: range.count, separator: 0x2E) else {
      throw error(
        at: offset,
        "expected a number as the value, found '\(fieldText(base + range.lowerBound, count: range.count))'")
    }
    let amount = number.doubleValue { fieldText(base + range.lowerBound, count: range.count) }
    guard amount.isFinite else {
      throw error(
        at: offset,
        "expected a number as the value, found '\(fieldText(base + range.lowerBound, count: range.count))', "
          + "beyond a Double's range")
    }
    guard amount >= 0 || type.aggregationStyle != .cumulative else {
      throw error(
        at: offset,
        "expected a value of at least 0 for the cumulative type \(type.rawValue), found "
          + "'\(fieldText(base + range.lowerBound, count: range.count))'")
    }
    return amount
  }

  /// The instant of the date attribute `name` (`startDate`, `endDate`) of the record at byte `offset`;
  /// an error naming the attribute and the record's offset when it is not a date-time or names an
  /// impossible date or time (`2024-02-30`, `25:00`; ``readDateTime(_:)``).
  private func date(_ range: Range<Int>, _ base: UnsafePointer<UInt8>, offset: Int64, name: String)
    throws(InputError) -> Timestamp
  {
    switch readDateTime(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)) {
    case .success(let nanoseconds): return Timestamp(nanosecondsSinceEpoch: nanoseconds)
    case .failure(let refusal):
      let found = "'\(fieldText(base + range.lowerBound, count: range.count))'"
      throw error(
        at: offset,
        refusal == .malformed
          ? "expected a \(name) like 2024-03-10 08:15:02 -0500, found \(found)"
          : "the \(name) \(found) is not a possible date and time: \(refusal)")
    }
  }

  /// An attribute value as text, entities decoded, shared with earlier equal values.
  private func cachedText(_ range: Range<Int>, _ base: UnsafePointer<UInt8>) -> String {
    strings.string(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
  }

  /// An attribute value as text, entities decoded.
  private func text(_ range: Range<Int>, _ base: UnsafePointer<UInt8>) -> String {
    decodeEntities(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
  }
}

/// Replaces XML's predefined entities and character references in `bytes`; an unknown or
/// malformed reference is kept as written.
func decodeEntities(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
  if bytes.isEmpty || memchr(bytes.baseAddress!, 0x26, bytes.count) == nil {
    return String(decoding: bytes, as: UTF8.self)
  }
  var result: [UInt8] = []
  result.reserveCapacity(bytes.count)
  var i = 0
  while i < bytes.count {
    guard bytes[i] == 0x26, let semicolon = bytes[i...].prefix(12).firstIndex(of: 0x3B) else {
      result.append(bytes[i])
      i += 1
      continue
    }
    let name = String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self)
    var scalar: Unicode.Scalar?
    switch name {
    case "amp": scalar = "&"
    case "lt": scalar = "<"
    case "gt": scalar = ">"
    case "quot": scalar = "\""
    case "apos": scalar = "'"
    default:
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
      } else if name.hasPrefix("#") {
        scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
      }
    }
    guard let scalar else {
      result.append(bytes[i])
      i += 1
      continue
    }
    result.append(contentsOf: UTF8.encode(scalar)!)
    i = semicolon + 1
  }
  return String(decoding: result, as: UTF8.self)
}

/// Recently seen attribute texts (types, sources, devices, units repeat from record to record), so
/// that equal bytes give one shared `String` instead of a new one per record.
private struct StringCache {
  enum Kind { case quantity, category, other }

  private var entries: [(bytes: [UInt8], string: String)] = []
  private var next = 0
  private var kinds: [(bytes: [UInt8], kind: Kind, name: String)] = []

  mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    for entry in entries where entry.bytes.count == bytes.count {
      if entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
      ) {
        return entry.string
      }
    }
    let string = decodeEntities(bytes)
    if entries.count < 16 {
      entries.append((Array(bytes), string))
    } else {
      entries[next] = (Array(bytes), string)
      next = (next + 1) % entries.count
    }
    return string
  }

  /// Whether a record's `type` attribute names a quantity, a category or something else, and the
  /// type's name without its prefix.
  mutating func kind(of range: Range<Int>, _ base: UnsafePointer<UInt8>) -> (Kind, String) {
    let bytes = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    for entry in kinds where entry.bytes.count == bytes.count {
      if entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
      ) {
        return (entry.kind, entry.name)
      }
    }
    let text = decodeEntities(bytes)
    var result: (Kind, String) = (.other, text)
    if text.hasPrefix(QuantityType.identifierPrefix), let type = QuantityType(identifier: text) {
      result = (.quantity, type.rawValue)
    } else if text.hasPrefix(CategoryType.identifierPrefix), let type = CategoryType(identifier: text) {
      result = (.category, type.rawValue)
    }
    if kinds.count >= 64 { kinds.removeFirst() }
    kinds.append((Array(bytes), result.0, result.1))
    return result
  }
}

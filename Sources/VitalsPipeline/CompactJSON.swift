import FoundationEssentials

/// `value` as one line of JSON, keys sorted and slashes unescaped, as the commands write it. Traps when
/// `value` does not encode: callers encode strings, integers, finite numbers and nulls only.
public func compactJSON(_ value: some Encodable) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  do {
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  } catch {
    preconditionFailure("\(type(of: value)) holds a value JSON cannot encode: \(error)")
  }
}

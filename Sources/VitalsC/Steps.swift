import Vitals
import VitalsCLI

/// Steps in the axes `x`, `y`, `z` of `count` samples at `sample_rate` Hz, as `vitals steps` counts
/// them (`StepCounting`); `unit` ("automatic", "g", "m/s^2") and `placement` ("body", "wrist") may be
/// NULL for the defaults. `*steps` (sample indices, `*step_count` long) and `*json` (`vitals steps`'
/// summary) are the caller's; each out-parameter may be NULL when not wanted.
@_cdecl("vitals_steps")
public func vitals_steps(
  _ x: UnsafePointer<Float>?, _ y: UnsafePointer<Float>?, _ z: UnsafePointer<Float>?, _ count: Int64,
  _ sampleRate: Double, _ unit: UnsafePointer<CChar>?, _ placement: UnsafePointer<CChar>?,
  _ steps: UnsafeMutablePointer<UnsafeMutablePointer<Int64>?>?, _ stepCount: UnsafeMutablePointer<Int64>?,
  _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    if steps != nil && stepCount == nil { throw CallFailure.argument("step_count is NULL but steps is not") }
    let axes = [
      try pointers(x, count: count, "x"), try pointers(y, count: count, "y"),
      try pointers(z, count: count, "z"),
    ]
    let unit = try word(unit, "unit", default: StepDetector.InputUnit.automatic)
    let placement = try word(placement, "placement", default: StepDetector.Placement.body)
    try SupportedRates.stepDetector.check("sample_rate", sampleRate)
    let counting: StepCounting
    do {
      counting = try StepCounting(
        x: axes[0], y: axes[1], z: axes[2], sampleRate: sampleRate, unit: unit, placement: placement)
    } catch {
      throw CallFailure.argument("\(error)")
    }
    steps?.pointee = mallocBuffer(counting.output.steps.map(\.sampleIndex))
    stepCount?.pointee = Int64(counting.output.steps.count)
    json?.pointee = mallocString(counting.json())
  }
}

/// The value the word at `pointer` names (`fallback` when NULL); an argument error naming `name` and
/// the words it takes otherwise.
private func word<Value: RawRepresentable & CaseIterable>(
  _ pointer: UnsafePointer<CChar>?, _ name: String, default fallback: Value
) throws(CallFailure) -> Value where Value.RawValue == String {
  guard let pointer else { return fallback }
  let text = String(cString: pointer)
  guard let value = Value(rawValue: text) else {
    let words = Value.allCases.map(\.rawValue).joined(separator: ", ")
    throw .argument("\(name) must be one of \(words), got '\(text)'")
  }
  return value
}

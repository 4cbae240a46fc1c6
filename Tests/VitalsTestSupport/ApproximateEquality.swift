@_exported import RealModule
import Testing

/// Expects `actual` and `expected` to hold as many values and each pair to be approximately equal
/// by RealModule's `isApproximatelyEqual(to:absoluteTolerance:relativeTolerance:)`:
/// `|a − e| ≤ max(absoluteTolerance, relativeTolerance · max(|a|, |e|))`, equal infinities agree and
/// NaN never does. Records one issue naming the worst pair and how many pairs differ.
public func expectApproximatelyEqual<Value: Numeric>(
  _ actual: [Value], _ expected: [Value], absoluteTolerance: Value.Magnitude,
  relativeTolerance: Value.Magnitude = 0, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) where Value.Magnitude: FloatingPoint {
  guard actual.count == expected.count else {
    Issue.record(
      "\(comment.map { "\($0): " } ?? "")\(actual.count) values against \(expected.count) expected",
      sourceLocation: sourceLocation)
    return
  }
  let failures = actual.indices.filter { k in
    !actual[k].isApproximatelyEqual(
      to: expected[k], absoluteTolerance: absoluteTolerance, relativeTolerance: relativeTolerance)
  }
  guard !failures.isEmpty else { return }
  let worst = failures.max { (actual[$0] - expected[$0]).magnitude < (actual[$1] - expected[$1]).magnitude }!
  let context = comment.map { "\($0): " } ?? ""
  let tolerance = "\(absoluteTolerance) absolute, \(relativeTolerance) relative"
  let message = "\(failures.count) of \(actual.count) values differ beyond \(tolerance)"
  Issue.record(
    "\(context)\(message); the worst at \(worst): \(actual[worst]) against \(expected[worst])",
    sourceLocation: sourceLocation)
}

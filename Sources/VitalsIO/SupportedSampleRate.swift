import VitalsCore

/// `rate` when it lies within `SignalChunk/supportedSampleRates`; otherwise an ``InputError`` at
/// `location` of `path` saying that `field` states an unsupported rate and which rates are accepted.
func supportedSampleRate(_ rate: Double, field: String, path: String, location: InputError.Location)
  throws(InputError) -> Double
{
  let range = SignalChunk.supportedSampleRates
  guard range.contains(rate) else {
    throw InputError(
      path: path, location: location,
      "the \(field) gives \(rate) Hz: expected a sample rate from \(Int(range.lowerBound)) to "
        + "\(Int(range.upperBound)) Hz")
  }
  return rate
}

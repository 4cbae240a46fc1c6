import Vitals

/// The beats of an ECG recording in any format Vitals reads, and their heart-rate variability.
func beatsAndVariability(path: String) throws -> (beats: [Int64], variability: HRVAnalysis) {
  var recording = try RecordingOpener.open(path: path)
  var detector = try QRSDetector(sampleRate: recording.chunkSampleRate)
  var beats: [Int64] = []  // sample indices of the R peaks
  while let chunk = try recording.nextChunk(maxSamples: 65_536) {
    beats += detector.process(chunk.channels[0])  // the first signal
  }
  detector.finish(appendingTo: &beats)  // the beats of the recording's last half second
  return (beats, HRVAnalysis(beats: beats, sampleRate: recording.chunkSampleRate))
}

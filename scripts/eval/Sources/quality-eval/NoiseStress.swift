import Foundation

/// Noise added to a clean ECG as the MIT-BIH Noise Stress Test Database was made with WFDB `nst`
/// (Moody, Muldrow & Mark 1984, "A noise stress test for arrhythmia detectors", Computers in Cardiology
/// 11:381–384): the first 5 minutes stay clean, then noise is added in 2-minute stretches alternating with
/// 2 clean minutes, scaled to the signal-to-noise ratio `snr` (dB) with the signal's power taken, as `nst`
/// takes it, from its QRS amplitude: S = A² / 8 for the mean peak-to-peak amplitude A of the QRS
/// complexes (within ±50 ms of each reference beat), N = the noise's variance (mean removed per second).
enum NoiseStress {
  static func added(_ noise: [Float], to clean: [Float], beats: [Int64], sampleRate: Double, snr: Double)
    -> [Float]
  {
    let half = Int(0.05 * sampleRate)
    var amplitudes = 0.0
    for beat in beats.map(Int.init) where beat - half >= 0 && beat + half < clean.count {
      let span = clean[(beat - half)...(beat + half)]
      amplitudes += Double(span.max()! - span.min()!)
    }
    let amplitude = amplitudes / Double(max(beats.count, 1))
    let signalPower = amplitude * amplitude / 8
    let second = Int(sampleRate)
    var noisePower = 0.0
    var seconds = 0
    for start in stride(from: 0, to: noise.count - second + 1, by: second) {
      let span = noise[start..<(start + second)].map(Double.init)
      let mean = span.reduce(0, +) / Double(second)
      noisePower += span.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(second)
      seconds += 1
    }
    noisePower /= Double(max(seconds, 1))
    let gain = Float((signalPower / noisePower / pow(10, snr / 10)).squareRoot())
    let minute = Int(60 * sampleRate)
    return clean.indices.map { i in
      let noisy = i >= 5 * minute && (i - 5 * minute) / (2 * minute) % 2 == 0
      return noisy && i < noise.count ? clean[i] + gain * noise[i] : clean[i]
    }
  }
}

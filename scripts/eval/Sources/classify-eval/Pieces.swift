import Foundation
import Vitals

/// The 30-s pieces of the shared MIT-BIH and CPSC 2021 records: sinus pieces (reference rhythm `(N`
/// throughout, at least 95 % of the reference beats N) labelled N, pieces wholly inside `(AFIB` episodes
/// labelled A, and the MIT-BIH sinus pieces with `ma` and `bw` noise at 6, 0 and −6 dB labelled ~ (the noise
/// from the same time of the noise record as the piece).
func pieceRecordings(data: String) throws -> [Recording] {
  var pieces: [Recording] = []
  let noises = try ["bw", "ma"].map { name in
    (name, try WFDBRecordReader(path: data + "/nstdb-noise/" + name).readAll()!.channels[0])
  }
  for (database, folder) in [("mitdb", data + "/mitdb"), ("cpsc2021", data + "/cpsc2021")] {
    for name in try recordNames(in: folder) {
      let record = try AnnotatedRecord(path: folder + "/" + name)
      for piece in record.pieces {
        if AnnotatedRecord.inside(piece, record.fibrillation) {
          pieces.append(record.recording(piece, source: database + "-af", label: "A"))
        } else if database == "mitdb" && AnnotatedRecord.inside(piece, record.sinus)
          && record.normalShare(piece) >= 0.95
        {
          let clean = record.recording(piece, source: "mitdb-sinus", label: "N")
          pieces.append(clean)
          for (noiseName, noise) in noises where Int(piece.upperBound) <= noise.count {
            for snr in [6.0, 0, -6] {
              var stressed = clean
              stressed.source = "noisy-\(noiseName)-\(Int(snr))dB"
              stressed.label = "~"
              stressed.samples = noisy(
                clean.samples, beats: record.beats(in: piece),
                noise: noise[Int(piece.lowerBound)..<Int(piece.upperBound)], sampleRate: record.sampleRate,
                snr: snr)
              pieces.append(stressed)
            }
          }
        }
      }
    }
  }
  return pieces
}

/// The record names listed in `folder`/RECORDS, else the `.hea` files' names, sorted.
func recordNames(in folder: String) throws -> [String] {
  if let list = try? String(contentsOfFile: folder + "/RECORDS", encoding: .utf8) {
    return list.split(whereSeparator: \.isNewline).map(String.init)
  }
  return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".hea") }
    .map { String($0.dropLast(4)) }.sorted()
}

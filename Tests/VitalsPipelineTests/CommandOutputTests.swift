import Foundation
import Testing
import VitalsAnalysis
import VitalsStatistics

@testable import VitalsPipeline

@Suite("Outputs of the commands, built by the library")
struct CommandOutputTests {
  @Test("a comma-separated source list: blanks around names trimmed, order kept")
  func sourceList() {
    #expect(
      SourcePriority(commaSeparated: " iPhone ,\tAnna's Watch\u{00A0}").order == ["iPhone", "Anna's Watch"])
    #expect(SourcePriority(commaSeparated: "").order == [])
  }

  @Test("beat scores: undefined fractions are JSON null, the table shows them as -")
  func undefinedScores() throws {
    let empty = RecordBeatScore(
      record: "r", wholeRecord: BeatScore(), afterLearningPeriod: BeatScore(), learningPeriod: 300)
    let table = BeatScoreTable(records: [empty], matchWindow: 0.15, learningPeriod: 300)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(table.json().utf8)) as? [String: Any])
    let whole = try #require((object["gross"] as? [String: Any])?["whole"] as? [String: Any])
    #expect(whole["se"] is NSNull && whole["ppv"] is NSNull && whole["tp"] as? Int == 0)
    #expect(table.text().split(separator: "\n")[2].hasSuffix("-       -       -"))
  }

  @Test("heart-rate windows as CSV: times without trailing zeros, bpm nan when undefined")
  func heartRateCSV() {
    let text = HeartRateWindow.csv([
      HeartRateWindow(startTime: 2, endTime: 10.25, beatsPerMinute: .nan, quality: 0.1234, isReliable: false)
    ])
    #expect(text == "window_start_s,window_end_s,bpm,quality\n2,10.25,nan,0.123\n")
  }
}

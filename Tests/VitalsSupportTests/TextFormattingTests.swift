import Foundation
import Testing
import VitalsSupport

private let numbers: [Double] = [
  0, -0.0, 0.0005, 0.0015, 2.0005, -0.001, 0.05, 0.125, 1.5, 2.5, 99.995, 123.456_789, 1e-5, 0.000_123_456_7,
  100_000, 1_234_567, 123_456_789, 1e300, -42.42, .nan, .infinity, -.infinity,
]

@Test(arguments: ["%.1f", "%.2f", "%.3f", "%.0f", "%.6f", "%.6g"])
func cFormatMatchesFoundation(_ format: String) {
  for value in numbers {
    #expect(String(cFormat: format, value) == String(format: format, value), "\(format) \(value)")
  }
}

@Test func cFormatIntegersAndText() {
  #expect(String(cFormat: "%ld:%02ld:%02ld left", 1, 2, 3) == "1:02:03 left")
  #expect(String(cFormat: "%ld:%02ld left", 125, 7) == String(format: "%d:%02d left", 125, 7))
  #expect(String(cFormat: "%.1f M samples/s", 3.14159) == "3.1 M samples/s")
  let long = String(cFormat: "%.3f", 1e70)
  #expect(long == String(format: "%.3f", 1e70) && long.count > 64)
}

private let untrimmed = [
  "", " ", "\t a b \t", "\u{A0}x\u{2003}", "\n x \r\n", "x\u{85}", "\u{2028}y\u{2029}", "plain", " \u{301}e ",
]

@Test(arguments: untrimmed)
func trimmingMatchesCharacterSets(_ text: String) {
  #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces))
  #expect(
    text.trimmingScalars(where: \.isBlankOrNewline) == text.trimmingCharacters(in: .whitespacesAndNewlines))
  #expect(
    "_-x y. ".trimmingScalars(where: { "_- .".unicodeScalars.contains($0) })
      == "_-x y. ".trimmingCharacters(in: CharacterSet(charactersIn: "_- .")))
}

@Test func systemReasonNamesTheUnderlyingPOSIXError() {
  #expect(throws: (any Error).self) {
    try Data("x".utf8).write(to: URL(fileURLWithPath: "/nonexistent-dir/x"))
  }
  do {
    try Data("x".utf8).write(to: URL(fileURLWithPath: "/nonexistent-dir/x"))
  } catch {
    #expect(systemReason(error) == "No such file or directory")
  }
  #expect(systemReason(POSIXError(.EACCES)) == "Permission denied")
}

@Test func shortestTextReadsBackAndDropsTheFractionOfIntegers() {
  #expect(shortestText(3) == "3")
  #expect(shortestText(-0.0) == "0")
  #expect(shortestText(0.1) == "0.1")
  #expect(shortestText(1e15) == "1000000000000000.0")
  #expect(shortestText(1e16) == "1e+16")
  #expect(shortestText(.nan) == "nan")
  for value in numbers where value.isFinite {
    #expect(Double(shortestText(value)) == value, "\(value)")
  }
}

/// MIT/WFDB annotation codes, as beat-by-beat scoring reads them.
///
/// Source: the WFDB annotation code table (`ecgcodes.h`) and ANSI/AAMI EC57 as applied by WFDB `bxb`.
public enum MITAnnotationCode {
  /// The mnemonics that mark a beat: `N L R B A a J S V r F e j n E / f Q ?`.
  ///
  /// Everything else (rhythm changes `+`, noise `~`, signal quality, comments, waves) is not a beat
  /// and takes no part in matching.
  public static let beatSymbols: Set<String> = [
    "N", "L", "R", "B", "A", "a", "J", "S", "V", "r", "F", "e", "j", "n", "E", "/", "f", "Q", "?",
  ]

  /// Whether `symbol` (an annotation mnemonic such as `"N"` or `"+"`) marks a beat.
  @inlinable
  public static func isBeat(_ symbol: String) -> Bool {
    beatSymbols.contains(symbol)
  }
}

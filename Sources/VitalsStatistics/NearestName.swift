extension QuantityType {
  /// The name among `candidates` nearest to `name`, case ignored, to suggest for a misspelled type: one
  /// that differs only in case, else the one fewest single-letter edits away when at most a third of
  /// `name`'s letters (1 to 3) differ; ties go to the first by name. Nil when none is that close.
  public static func nearestName(to name: String, among candidates: [String]) -> String? {
    let target = Array(name.lowercased())
    let limit = min(3, max(1, target.count / 3))
    var nearest: (edits: Int, name: String)?
    for candidate in candidates {
      let edits = editDistance(target, Array(candidate.lowercased()))
      if edits <= limit, nearest.map({ (edits, candidate) < $0 }) ?? true { nearest = (edits, candidate) }
    }
    return nearest?.name
  }

  /// The Levenshtein distance of `a` and `b`: the fewest insertions, deletions and substitutions of
  /// single characters that turn one into the other.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    // previous[j]: the distance of the letters of `a` so far to the first j letters of `b`.
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}

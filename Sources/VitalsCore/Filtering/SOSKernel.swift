/// The values a cascade runs on: one channel (`Double`) or one channel per lane of a SIMD vector of
/// `Double`. Every lane performs exactly the scalar operations, in the same order, so a lane's output is
/// bit-identical to the one-channel path's (Swift does not contract `a * b + c` into a fused multiply-add).
protocol SOSLanes: Sendable {
  /// Lanes in a value.
  static var laneCount: Int { get }
  init(repeating value: Double)
  subscript(lane lane: Int) -> Double { get set }
  /// Widens `laneCount` consecutive `Float`s (unaligned) into the lanes.
  init(widening floats: UnsafePointer<Float>)
  /// Rounds the lanes to `Float` and stores them at `laneCount` consecutive (unaligned) places.
  func storeRounded(to floats: UnsafeMutablePointer<Float>)
  static func + (lhs: Self, rhs: Self) -> Self
  static func - (lhs: Self, rhs: Self) -> Self
  static func * (lhs: Self, rhs: Self) -> Self
}

extension Double: SOSLanes {
  static var laneCount: Int { 1 }

  init(repeating value: Double) { self = value }

  subscript(lane lane: Int) -> Double {
    get { self }
    set { self = newValue }
  }

  @inline(__always)
  init(widening floats: UnsafePointer<Float>) { self = Double(floats.pointee) }

  @inline(__always)
  func storeRounded(to floats: UnsafeMutablePointer<Float>) { floats.pointee = Float(self) }
}

extension SOSLanes where Self: SIMD, Scalar == Double {
  static var laneCount: Int { scalarCount }

  subscript(lane lane: Int) -> Double {
    get { self[lane] }
    set { self[lane] = newValue }
  }
}

extension SIMD2: SOSLanes where Scalar == Double {
  @inline(__always)
  init(widening floats: UnsafePointer<Float>) {
    self.init(UnsafeRawPointer(floats).loadUnaligned(as: SIMD2<Float>.self))
  }

  @inline(__always)
  func storeRounded(to floats: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(floats).storeBytes(of: SIMD2<Float>(self), as: SIMD2<Float>.self)
  }
}

extension SIMD4: SOSLanes where Scalar == Double {
  @inline(__always)
  init(widening floats: UnsafePointer<Float>) {
    self.init(UnsafeRawPointer(floats).loadUnaligned(as: SIMD4<Float>.self))
  }

  @inline(__always)
  func storeRounded(to floats: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(floats).storeBytes(of: SIMD4<Float>(self), as: SIMD4<Float>.self)
  }
}

extension SIMD8: SOSLanes where Scalar == Double {
  @inline(__always)
  init(widening floats: UnsafePointer<Float>) {
    self.init(UnsafeRawPointer(floats).loadUnaligned(as: SIMD8<Float>.self))
  }

  @inline(__always)
  func storeRounded(to floats: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(floats).storeBytes(of: SIMD8<Float>(self), as: SIMD8<Float>.self)
  }
}

/// One biquad in direct form II transposed with its two state values, on lanes `L`.
///
/// `y = b0·x + z0;  z0 ← (b1·x + z1) − a1·y;  z1 ← b2·x − a2·y`: the recurrence of SciPy's `sosfilt`, so
/// that `z0, z1` are SciPy's `zi` for the section. SciPy adds `z1` last; adding it first takes one dependent
/// operation off the path from one output to the next (three instead of four), which is what bounds the
/// speed of a single channel. The results agree with SciPy's to rounding.
struct LaneSection<L: SOSLanes> {
  var b0, b1, b2, a1, a2: L
  var z0, z1: L

  init(_ section: SecondOrderSections.Section) {
    b0 = L(repeating: section.b0)
    b1 = L(repeating: section.b1)
    b2 = L(repeating: section.b2)
    a1 = L(repeating: section.a1)
    a2 = L(repeating: section.a2)
    z0 = L(repeating: 0)
    z1 = L(repeating: 0)
  }

  @inline(__always)
  mutating func callAsFunction(_ x: L) -> L {
    let y = b0 * x + z0
    z0 = (b1 * x + z1) - a1 * y
    z1 = b2 * x - a2 * y
    return y
  }
}

/// Sections fused into one pass over the samples, their coefficients and state held in registers: each
/// sample goes through all of them before the next is read, so the sections' recurrences overlap in the
/// pipeline instead of each pass being bound by one section's latency.
protocol FusedSections {
  associatedtype L: SOSLanes
  mutating func callAsFunction(_ x: L) -> L
}

struct SectionPair<L: SOSLanes>: FusedSections {
  var first, second: LaneSection<L>

  @inline(__always)
  mutating func callAsFunction(_ x: L) -> L { second(first(x)) }
}

struct SectionQuad<L: SOSLanes>: FusedSections {
  var first, second: SectionPair<L>

  @inline(__always)
  mutating func callAsFunction(_ x: L) -> L { second(first(x)) }
}

/// A cascade of sections on lanes `L` with its state, run as fused groups of four sections (and one group
/// of two last when the count calls for it). Counts that do not fill the groups are padded with identity
/// sections, which pass samples through exactly (`1·x + 0`), so padding never changes a result.
struct LaneCascade<L: SOSLanes> {
  /// Real sections first, then the padding.
  var sections: [LaneSection<L>]
  /// The real sections (the rest is padding).
  let sectionCount: Int

  /// Samples per block when more than one group runs: the block passes through each group in turn.
  static var blockLength: Int { 256 }

  init(_ design: SecondOrderSections) {
    sectionCount = design.sections.count
    let padded: Int
    switch sectionCount % 4 {
    case 0: padded = sectionCount
    case 1, 2: padded = sectionCount - sectionCount % 4 + 2
    default: padded = sectionCount + 1
    }
    sections = (design.sections + Array(repeating: .identity, count: padded - sectionCount)).map(
      LaneSection.init)
  }

  /// Number of fused groups: quads, then a pair when the padded count is not a multiple of four.
  var groupCount: Int { (sections.count + 3) / 4 }

  /// Sets every state value to zero.
  mutating func reset() {
    for index in sections.indices {
      sections[index].z0 = L(repeating: 0)
      sections[index].z1 = L(repeating: 0)
    }
  }

  /// Runs `count` samples: sample `i` is `load(i)`, its output is passed to `store(i, _)`. `store(i, _)` is
  /// called after `load(i)` and before `load(i + 1)` when the cascade is a single group, and after
  /// `load(i + blockLength − 1)` at most otherwise; in-place filtering is therefore safe.
  @inline(__always)
  mutating func run(count: Int, load: (Int) -> L, store: (Int, L) -> Void) {
    guard count > 0 else { return }
    let groups = groupCount
    sections.withUnsafeMutableBufferPointer { sections in
      if groups == 1 {
        Self.runGroup(0, of: sections, count: count, load: load, store: store)
        return
      }
      withUnsafeTemporaryAllocation(of: L.self, capacity: Self.blockLength) { block in
        var start = 0
        while start < count {
          let length = min(Self.blockLength, count - start)
          for group in 0..<groups {
            let first = group == 0
            let last = group == groups - 1
            Self.runGroup(
              group, of: sections, count: length,
              load: { first ? load(start + $0) : block[$0] },
              store: { last ? store(start + $0, $1) : (block[$0] = $1) })
          }
          start += length
        }
      }
    }
  }

  @inline(__always)
  private static func runGroup(
    _ group: Int, of sections: UnsafeMutableBufferPointer<LaneSection<L>>, count: Int,
    load: (Int) -> L, store: (Int, L) -> Void
  ) {
    let base = 4 * group
    if base + 4 <= sections.count {
      var quad = SectionQuad(
        first: SectionPair(first: sections[base], second: sections[base + 1]),
        second: SectionPair(first: sections[base + 2], second: sections[base + 3]))
      runFused(&quad, count: count, load: load, store: store)
      sections[base] = quad.first.first
      sections[base + 1] = quad.first.second
      sections[base + 2] = quad.second.first
      sections[base + 3] = quad.second.second
    } else {
      var pair = SectionPair(first: sections[base], second: sections[base + 1])
      runFused(&pair, count: count, load: load, store: store)
      sections[base] = pair.first
      sections[base + 1] = pair.second
    }
  }

  @inline(__always)
  private static func runFused<G: FusedSections>(
    _ group: inout G, count: Int, load: (Int) -> G.L, store: (Int, G.L) -> Void
  ) {
    var local = group
    for index in 0..<count { store(index, local(load(index))) }
    group = local
  }

  /// The state of lane `lane` in SciPy's `zi` layout (`[z0, z1]` per real section).
  func state(lane: Int) -> [Double] {
    sections[..<sectionCount].flatMap { [$0.z0[lane: lane], $0.z1[lane: lane]] }
  }

  /// Sets the state of lane `lane` from SciPy's `zi` layout.
  mutating func setState(_ state: [Double], lane: Int) {
    precondition(
      state.count == 2 * sectionCount, "state holds 2 values per section, expected \(2 * sectionCount)")
    for index in 0..<sectionCount {
      sections[index].z0[lane: lane] = state[2 * index]
      sections[index].z1[lane: lane] = state[2 * index + 1]
    }
  }
}

import Foundation
import Testing
import VitalsCore
import VitalsStatistics

/// Zones with every kind of change: northern and southern daylight time, half- and quarter-hour
/// offsets, changes at midnight (Santiago, Beirut, Havana), a 30-minute daylight shift (Lord Howe),
/// negative daylight time (Dublin), a skipped day (Apia), +14 h (Kiritimati).
private let zones = [
  "America/New_York", "Europe/Berlin", "Europe/London", "Europe/Dublin", "Australia/Sydney",
  "Australia/Lord_Howe",
  "America/Santiago", "Asia/Beirut", "America/Havana", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns",
  "Pacific/Chatham", "America/Sao_Paulo", "Pacific/Apia", "Asia/Tehran", "Africa/Cairo", "Pacific/Kiritimati",
  "America/Adak", "Pacific/Auckland", "Etc/GMT-14", "UTC",
]

private let from1970: Int64 = 0
private let to2100: Int64 = 4_102_444_800

private func foundationZone(_ name: String) -> TimeZone { TimeZone(identifier: name)! }

private func calendar(_ name: String) -> Calendar {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = foundationZone(name)
  return calendar
}

private func date(_ t: Timestamp) -> Date {
  Date(timeIntervalSince1970: Double(t.nanosecondsSinceEpoch) / 1e9)
}
private func timestamp(_ d: Date) -> Timestamp {
  Timestamp(nanosecondsSinceEpoch: Int64(d.timeIntervalSince1970) * 1_000_000_000)
}

/// The instants (seconds) 1970–2100 at which `zone`'s offset changes: a scan in 4-day steps (no zone
/// changes twice within 4 days), then bisection.
private func changes(_ zone: TimeZoneRules) -> [Int64] {
  var result: [Int64] = []
  var previous = zone.offset(atSecond: from1970)
  var t = from1970
  while t < to2100 {
    let next = t + 4 * 86_400
    let offset = zone.offset(atSecond: next)
    if offset != previous {
      var (low, high) = (t, next)  // offset(low) == previous, offset(high) != previous
      while high - low > 1 {
        let middle = (low + high) / 2
        if zone.offset(atSecond: middle) == previous { low = middle } else { high = middle }
      }
      result.append(high)
      previous = offset
    }
    t = next
  }
  return result
}

@Suite struct TimeZoneRulesTests {
  @Test(arguments: zones)
  func offsetsMatchFoundation(_ name: String) throws {
    let zone = try TimeZoneRules(named: name)
    let reference = foundationZone(name)
    var t = from1970
    var step: Int64 = 0
    while t < to2100 {
      #expect(zone.offset(atSecond: t) == reference.secondsFromGMT(for: date(at(t))), "\(name) at \(t)")
      step += 1
      t += 11 * 86_400 + step % 7 * 3_607
    }
    for change in changes(zone) {
      for delta: Int64 in [-1, 0] {
        #expect(
          zone.offset(atSecond: change + delta) == reference.secondsFromGMT(for: date(at(change + delta))),
          "\(name) at \(change + delta)")
      }
    }
  }

  @Test(arguments: zones)
  func calendarArithmeticMatchesFoundation(_ name: String) throws {
    let zone = try TimeZoneRules(named: name)
    let calendar = calendar(name)
    var instants: [Timestamp] = []
    // Around every third change (all kinds of change, as zones alternate), and spread over the years.
    for (k, change) in changes(zone).enumerated() where k % 3 == 0 {
      for delta: Int64 in [-5_400, -1_800, 0, 1_800, 3_599, 86_400] { instants.append(at(change + delta)) }
    }
    instants += stride(from: from1970, to: to2100, by: 97 * 86_400 + 4_001).map(at)
    for t in instants {
      let d = date(t)
      #expect(zone.startOfDay(containing: t) == timestamp(calendar.startOfDay(for: d)), "\(name) day of \(t)")
      for days in [-240, -7, -2, -1, 1, 2, 7, 300] {
        let expected = timestamp(calendar.date(byAdding: .day, value: days, to: d)!)
        #expect(zone.adding(days: days, to: t) == expected, "\(name) \(t) + \(days) d")
      }
      for months in [-8, -1, 1, 10, 13] {
        let expected = timestamp(calendar.date(byAdding: .month, value: months, to: d)!)
        #expect(zone.adding(months: months, to: t) == expected, "\(name) \(t) + \(months) mo")
      }
      // The wall-clock time of `t`, and the same time of day a day later, as local times.
      let local = zone.localNanoseconds(at: t)
      for shift in [Int64(0), 86_400_000_000_000, -86_400_000_000_000] {
        let wall = local + shift
        let days = wall >= 0 ? wall / 86_400_000_000_000 : (wall + 1) / 86_400_000_000_000 - 1
        let seconds = (wall - days * 86_400_000_000_000) / 1_000_000_000
        let civil = Timestamp.civilDate(daysSinceEpoch: days)
        let components = DateComponents(
          year: civil.year, month: civil.month, day: civil.day, hour: Int(seconds / 3600),
          minute: Int(seconds / 60 % 60), second: Int(seconds % 60))
        #expect(
          zone.instant(atLocal: wall) == timestamp(calendar.date(from: components)!),
          "\(name) local \(components)")
      }
    }
  }

  @Test func namesAndFixedOffsets() throws {
    #expect(try TimeZoneRules(named: "UTC") == .utc)
    #expect(try TimeZoneRules(named: "GMT").identifier == "GMT")
    for (name, offset, identifier) in [
      ("GMT+1", 3600, "GMT+0100"), ("GMT+05:30", 19_800, "GMT+0530"), ("GMT-0800", -28_800, "GMT-0800"),
      ("UTC+01:00", 3600, "GMT+0100"),
    ] {
      let zone = try TimeZoneRules(named: name)
      #expect(zone.offset(atSecond: 1_700_000_000) == offset && zone.identifier == identifier)
      #expect(foundationZone(name).secondsFromGMT() == offset)
    }
    #expect(try TimeZoneRules(named: "America/New_York").identifier == "America/New_York")
    for name in ["Nowhere/Else", "", "../etc/passwd", "/etc/localtime", "europe/berlin", "America/New York"] {
      #expect(throws: TimeZoneError.self, "\(name)") { try TimeZoneRules(named: name) }
    }
    do {
      _ = try TimeZoneRules(named: "Nowhere/Else")
    } catch {
      #expect(error.description == "Nowhere/Else: unknown time zone (no such zone in /usr/share/zoneinfo)")
    }
    #expect(throws: TimeZoneError.self) { try TimeZoneRules(identifier: "x", tzif: Array("TZif2".utf8)) }
  }

  @Test func currentZoneIsTheSystemsLikeFoundations() {
    let current = TimeZoneRules.current
    let reference = TimeZone.current
    for t: Int64 in [0, 1_700_000_000, 1_720_000_000, 4_000_000_000] {
      #expect(current.offset(atSecond: t) == reference.secondsFromGMT(for: date(at(t))))
    }
  }

  @Test("zone conversions at the ends of the range saturate instead of overflowing")
  func zoneConversionsAtTheEnds() throws {
    let newYork = try TimeZoneRules(named: "America/New_York")
    let tokyo = try TimeZoneRules(named: "Asia/Tokyo")
    // Tokyo is 9 h east: local time past the latest instant saturates.
    #expect(tokyo.localNanoseconds(at: .distantFuture) == .max)
    #expect(newYork.localNanoseconds(at: .distantPast) == .min)
    #expect(newYork.localNanoseconds(at: .epoch) == -5 * 3_600_000_000_000)
    // The first day's midnight lies before the earliest instant: the earliest local time stands for it.
    #expect(newYork.startOfDay(containing: .distantPast) == newYork.instant(atLocal: .min))
    #expect(tokyo.startOfDay(containing: .distantFuture) < .distantFuture)
    #expect(tokyo.instant(atLocal: .max) == .distantFuture.advanced(byNanoseconds: -9 * 3_600_000_000_000))
    #expect(newYork.instant(atLocal: .min) <= .distantPast.advanced(byNanoseconds: 5 * 3_600_000_000_000))
  }
}

import VitalsCore

/// Streams the single-lead ECG of an Apple Health export's `electrocardiograms/ecg_*.csv`.
///
/// The file opens with `key,value` lines (separated by blank lines) — `Name`, `Date of Birth`,
/// `Recorded Date`, `Classification`, `Symptoms`, `Software Version`, `Device`, `Sample Rate`,
/// `Lead`, `Unit` — then holds one sample per line in µV. Keys are matched in English, German,
/// French, Spanish and Italian, and otherwise by their fixed position; the sample rate is also
/// recognized by its `hertz` value. Values may be quoted and hold commas; devices in other locales
/// write a decimal comma (`-265,868`, `"513,625 hertz"`).
///
/// **Personal data.** `Name` and `Date of Birth` are skipped while parsing: never stored, so never
/// printed or logged.
public final class AppleHealthECGReader: SignalReader {
  /// What the header says about the recording (personal fields excluded).
  public struct Metadata: Sendable, Equatable, Codable {
    /// `Recorded Date` as an absolute time (its UTC offset applied).
    public var recordedDate: Timestamp?
    /// `Recorded Date` as written (`2021-12-17 12:58:58 +0800`).
    public var recordedDateText: String?
    /// The watch's rhythm classification (`Sinus Rhythm`, `Atrial Fibrillation`, `Inconclusive`).
    public var classification: String?
    /// Symptoms the wearer entered (free text, possibly empty).
    public var symptoms: String?
    /// watchOS ECG app version (`1.90`).
    public var softwareVersion: String?
    /// Watch model identifier (`Watch5,1`).
    public var device: String?
    /// Samples per second (fractional: `513.625`).
    public var sampleRate: Double?
    /// `Lead I` for the watch.
    public var lead: String?
    /// `µV`.
    public var unit: String?
  }

  public let formatName = "Apple Health ECG"
  /// The header's non-personal fields.
  public let metadata: Metadata
  public let signals: [SignalDescription]
  public let chunkSampleRate: Double
  /// The recorded date, `nil` when the header has none that can be read.
  public let startTime: Timestamp?

  private let lines: LineBuffer
  private let separator: UInt8
  /// The first sample line, read while looking for the end of the header.
  private var pendingLine: [UInt8]?
  private var samplesYielded: Int64 = 0

  private enum Field: CaseIterable {
    case name, birthDate, recordedDate, classification, symptoms, software, device, sampleRate, lead, unit
  }

  private static let keys: [String: Field] = [
    "name": .name, "nom": .name, "nombre": .name, "nome": .name,
    "date of birth": .birthDate, "geburtsdatum": .birthDate, "date de naissance": .birthDate,
    "fecha de nacimiento": .birthDate, "data di nascita": .birthDate,
    "recorded date": .recordedDate, "aufnahmedatum": .recordedDate, "date d’enregistrement": .recordedDate,
    "date d'enregistrement": .recordedDate, "fecha de registro": .recordedDate,
    "data di registrazione": .recordedDate,
    "classification": .classification, "klassifizierung": .classification, "clasificación": .classification,
    "classificazione": .classification,
    "symptoms": .symptoms, "symptome": .symptoms, "symptômes": .symptoms, "síntomas": .symptoms,
    "sintomi": .symptoms,
    "software version": .software, "softwareversion": .software, "version du logiciel": .software,
    "versión de software": .software, "versione software": .software,
    "device": .device, "gerät": .device, "appareil": .device, "dispositivo": .device,
    "sample rate": .sampleRate, "abtastrate": .sampleRate, "fréquence d’échantillonnage": .sampleRate,
    "fréquence d'échantillonnage": .sampleRate, "frecuencia de muestreo": .sampleRate,
    "frequenza di campionamento": .sampleRate,
    "lead": .lead, "ableitung": .lead, "dérivation": .lead, "derivación": .lead, "derivazione": .lead,
    "unit": .unit, "einheit": .unit, "unité": .unit, "unidad": .unit, "unità": .unit,
  ]

  /// Opens an ECG CSV file.
  public convenience init(path: String) throws(InputError) {
    try self.init(input: ByteInput(path: path))
  }

  /// Reads an ECG CSV held in memory; `name` stands for the path in errors.
  public convenience init(contents: [UInt8], name: String = "<memory>") throws(InputError) {
    try self.init(input: ByteInput(bytes: contents, name: name))
  }

  private init(input: ByteInput) throws(InputError) {
    lines = LineBuffer(input: input)
    var metadata = Metadata()
    var position = 0
    var firstSample: [UInt8]?
    while let raw = try lines.nextLine() {
      var line = Array(raw)
      if lines.lineNumber == 1 && line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
      while let last = line.last, last == 0x0D || last == 0x20 { line.removeLast() }
      if line.isEmpty { continue }
      if Self.sampleValue(line) != nil {
        firstSample = line
        break
      }
      let fields = CSVLayout.splitFields(line, delimiter: 0x2C)
      let key = CSVLayout.cleanText(fields[0]).lowercased()
      let value = fields.dropFirst().map { CSVLayout.cleanText($0) }.joined(separator: ",")
      var field = Self.keys[key]
      let named = field != nil
      if field == nil {
        if value.lowercased().hasSuffix("hertz") || value.lowercased().hasSuffix("hz") {
          field = .sampleRate
        } else if position < Field.allCases.count {
          field = Field.allCases[position]
        }
      }
      position += 1
      switch field {
      case .name, .birthDate, nil: break  // personal data: dropped unread
      case .recordedDate:
        metadata.recordedDateText = value
        metadata.recordedDate = try Self.recordedDate(
          value, named: named, path: input.path, line: lines.lineNumber)
      case .classification: metadata.classification = value
      case .symptoms: metadata.symptoms = value
      case .software: metadata.softwareVersion = value
      case .device: metadata.device = value
      case .sampleRate:
        let number = value.prefix { $0.isNumber || $0 == "." || $0 == "," }
        guard let rate = Double(String(number).replacingCommas()), rate > 0, rate.isFinite else {
          throw InputError(
            path: input.path, location: .line(lines.lineNumber),
            "expected a sample rate like \"512 hertz\", found \"\(value)\"")
        }
        metadata.sampleRate = try supportedSampleRate(
          rate, field: "Sample Rate field", path: input.path, location: .line(lines.lineNumber))
      case .lead: metadata.lead = value
      case .unit: metadata.unit = value
      }
    }
    guard position > 0 || firstSample != nil else { throw InputError(path: input.path, "empty file") }
    guard let rate = metadata.sampleRate else {
      throw InputError(path: input.path, "expected a \"Sample Rate\" header line (e.g. \"512 hertz\")")
    }
    guard let firstSample else {
      throw InputError(
        path: input.path, location: .line(lines.lineNumber + 1), "expected samples after the header")
    }
    pendingLine = firstSample
    separator = firstSample.contains(0x2C) ? 0x2C : 0x2E
    self.metadata = metadata
    chunkSampleRate = rate
    startTime = metadata.recordedDate
    signals = [
      SignalDescription(
        name: metadata.lead ?? "ECG", unit: metadata.unit ?? "µV", sampleRate: rate, sampleCount: nil)
    ]
  }

  /// The `Recorded Date` value as an instant; `nil` for a date outside ``Timestamp``'s years
  /// (1678–2261). A date-time naming an impossible date or time (`2024-02-30`, `25:00`;
  /// ``readDateTime(_:)``) is an error naming `line` and why. Another value is an error naming `line`
  /// when its key `named` it (a value taken by its position may be another field, and the personal ones
  /// must not be echoed): it is nil then.
  private static func recordedDate(_ value: String, named: Bool, path: String, line: Int)
    throws(InputError) -> Timestamp?
  {
    switch Array(value.utf8).withUnsafeBufferPointer({ readDateTime($0) }) {
    case .success(let nanoseconds): return Timestamp(nanosecondsSinceEpoch: nanoseconds)
    case .failure(.year): return nil
    case .failure(.malformed):
      guard named else { return nil }
      throw InputError(
        path: path, location: .line(line),
        "expected a recorded date like \"2021-12-17 12:58:58 +0800\", found \"\(value)\"")
    case .failure(let refusal):
      // A value of the date-time form is a date, whichever field it came from: echoing it is safe.
      throw InputError(
        path: path, location: .line(line),
        "the recorded date \"\(value)\" is not a possible date and time: \(refusal)")
    }
  }

  /// The line's value when it is one number (decimal point or comma, optionally quoted).
  private static func sampleValue(_ line: [UInt8], separator: UInt8? = nil) -> Float? {
    line.withUnsafeBufferPointer { b -> Float? in
      let sep = separator ?? (b.contains(0x2C) ? 0x2C : 0x2E)
      guard let base = b.baseAddress, let d = DecimalNumber.scan(base, count: b.count, separator: sep) else {
        return nil
      }
      return d.floatValue { fieldText(base, count: b.count, separator: sep) }
    }
  }

  /// The next samples (µV), at most `maxSamples`; `nil` at the end.
  public func nextChunk(maxSamples: Int) throws(InputError) -> SignalChunk? {
    precondition(maxSamples > 0, "maxSamples must be positive")
    var values = [Float]()
    values.reserveCapacity(min(maxSamples, 1 << 16))
    if let line = pendingLine {
      values.append(Self.sampleValue(line, separator: separator)!)
      pendingLine = nil
    }
    while values.count < maxSamples, let line = try lines.nextLine() {
      guard let base = line.baseAddress else { continue }
      var n = line.count
      while n > 0 && (base[n - 1] == 0x0D || base[n - 1] == 0x20) { n -= 1 }
      if n == 0 { continue }
      guard let d = DecimalNumber.scan(base, count: n, separator: separator) else {
        throw InputError(
          path: lines.input.path, location: .line(lines.lineNumber),
          "expected one sample value per line, found \"\(fieldText(base, count: n))\"")
      }
      values.append(d.floatValue { fieldText(base, count: n, separator: separator) })
    }
    guard !values.isEmpty else { return nil }
    let index = samplesYielded
    samplesYielded += Int64(values.count)
    return SignalChunk(
      channels: [values], sampleRate: chunkSampleRate,
      startTime: (startTime ?? .epoch).advanced(bySamples: index, rate: chunkSampleRate),
      firstSampleIndex: index)
  }

  /// Whether `lines` (the first lines of a file) look like an Apple Health ECG export: `key,value`
  /// lines, one of them a number (signed or not) in `hertz`, or, whatever its value, keyed as the
  /// sample rate (in one of the languages above) beside at least two of the keys `Recorded Date`,
  /// `Classification`, `Software Version` and `Lead` (so that the reader, not the CSV reader, reports
  /// a sample rate it cannot read, naming its line).
  static func looksLikeECGExport(_ lines: [[UInt8]]) -> Bool {
    var sampleRateKey = false
    var otherKeys = Set<Field>()
    for line in lines.prefix(40) {
      let fields = CSVLayout.splitFields(line, delimiter: 0x2C)
      guard fields.count >= 2 else { continue }
      let value = fields.dropFirst().map { CSVLayout.cleanText($0) }.joined(separator: ",").lowercased()
      let number = value.drop { $0 == "-" || $0 == "+" || $0 == "\u{2212}" }
      if value.hasSuffix("hertz") && number.first?.isNumber == true { return true }
      switch keys[CSVLayout.cleanText(fields[0]).lowercased()] {
      case .sampleRate: sampleRateKey = true
      case let field? where [.recordedDate, .classification, .software, .lead].contains(field):
        otherKeys.insert(field)
      default: break
      }
    }
    return sampleRateKey && otherKeys.count >= 2
  }
}

import SystemPackage
import VitalsSupport

/// An output path that names a file an input is read from.
public struct InputOverwriteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The output path as given (or derived: a WFDB record's `.dat`).
  public var output: String
  /// The input file it names (a recording, or a file the recording is read from).
  public var input: String
  /// The recording `input` belongs to, as given.
  public var recording: String

  /// The error for `output`, which is the file `input` of the input `recording`.
  public init(output: String, input: String, recording: String) {
    self.output = output
    self.input = input
    self.recording = recording
  }

  public var description: String {
    let source = input == recording ? "" : " (a file of the input recording \(recording))"
    return "refusing to write \(output): it is the input file \(input)\(source); choose another output path"
  }
}

/// Keeps outputs off inputs: the files each input recording may be read from, and a check, made before
/// anything is opened for writing, that no output is one of them.
public enum InputProtection {
  /// The files the recording at `path` may be read from, as paths: the path itself; for a WFDB record
  /// (`dir/100` or `dir/100.hea`), its header, the signal files its header names (`100.dat`,
  /// `a103l.mat`; `NAME.dat` too when the header cannot be read), a multi-segment record's segment
  /// headers and their signal files, and — with `annotations` — the annotation files beside it
  /// (`dir/100.EXT` files that end with the zero word that ends an MIT annotation file). Standard input
  /// (`-`) has none. Paths that do not exist are listed all the same.
  public static func files(ofRecording path: String, annotations: Bool = true) -> [String] {
    var listings: [String: [String]] = [:]
    return files(ofRecording: path, annotations: annotations, listings: &listings)
  }

  /// Throws when any of `outputs` is (device and inode, links followed) a file one of `inputs` (recording
  /// paths, or any other files a command reads) may be read from (``files(ofRecording:annotations:)``).
  /// Outputs that do not exist yet cannot be inputs. Reads headers and lists folders; opens nothing
  /// for writing.
  public static func refuseOverwritingInputs(outputs: [String], inputs: [String]) throws(InputOverwriteError)
  {
    var identities: [FileIdentity: String] = [:]
    for output in outputs where output != "-" {
      if let identity = FileIdentity(output), identities[identity] == nil { identities[identity] = output }
    }
    guard !identities.isEmpty else { return }
    var listings: [String: [String]] = [:]
    for recording in inputs {
      for file in files(ofRecording: recording, annotations: true, listings: &listings) {
        if let identity = FileIdentity(file), let output = identities[identity] {
          throw InputOverwriteError(output: output, input: file, recording: recording)
        }
      }
    }
  }

  private static func files(ofRecording path: String, annotations: Bool, listings: inout [String: [String]])
    -> [String]
  {
    guard path != "-" else { return [] }
    let isWFDB =
      path.hasSuffix(".hea") || (!FileSystem.isRegularFile(path) && FileSystem.isRegularFile(path + ".hea"))
    guard isWFDB else { return [path] }
    let header = path.hasSuffix(".hea") ? path : path + ".hea"
    let slash = header.lastIndex(of: "/")
    let directory = slash.map { String(header[...$0]) } ?? ""
    let record = String(header.dropLast(4).dropFirst(directory.count))
    var found = [path, header]
    found += recordFiles(header: header, directory: directory, record: record, depth: 0)
    guard annotations else { return found }
    let listing =
      listings[directory]
      ?? {
        let names = FileSystem.entries(of: directory.isEmpty ? "." : directory)
        listings[directory] = names
        return names
      }()
    let known = Set(found)
    for name in listing where name.hasPrefix(record + ".") {
      let candidate = directory + name
      if !known.contains(candidate) && endsWithZeroWord(candidate) { found.append(candidate) }
    }
    return found
  }

  /// The signal files (and, for a multi-segment record, the segment headers and their signal files) the
  /// header at `header` names; `NAME.dat` in any case.
  private static func recordFiles(header: String, directory: String, record: String, depth: Int) -> [String] {
    var files = [directory + record + ".dat"]
    guard let bytes = try? ByteInput(path: header).readAll(),
      let parsed = try? WFDBHeader.parse(bytes, path: header)
    else { return files }
    files += parsed.signals.map(\.fileName).filter { $0 != "-" }.map { directory + $0 }
    if depth == 0 {
      for segment in parsed.segments where !segment.isNull {
        let segmentHeader = directory + segment.name + ".hea"
        files.append(segmentHeader)
        files += recordFiles(header: segmentHeader, directory: directory, record: segment.name, depth: 1)
      }
    }
    return files
  }

  /// Whether the file at `path` holds an even number of bytes, at least two, the last two zero (the
  /// end of an MIT annotation file; never the end of text).
  private static func endsWithZeroWord(_ path: String) -> Bool {
    guard let size = FileSystem.size(path), size >= 2, size % 2 == 0,
      let input = try? ByteInput(path: path), let tail = try? input.bytes(at: size - 2, count: 2)
    else { return false }
    return tail == [0, 0]
  }
}

/// A file's device and inode (links followed).
package struct FileIdentity: Hashable {
  var device: UInt64
  var inode: UInt64

  /// The identity of the file at `path`, nil when there is none.
  package init?(_ path: String) {
    guard let status = try? Stat(FilePath(path)) else { return nil }
    device = UInt64(status.deviceID.rawValue)
    inode = UInt64(status.inode.rawValue)
  }
}

import Foundation
import Testing
import VitalsSupport

/// Paths whose components `NSString` takes apart (its odd cases, `//` and `a//b`, left out).
private let paths = [
  "", "/", "a", "a/", "/a/b.c", "a/b.c/", "b.tar.gz", "x/y/b.tar.gz", ".hidden", "a/.hidden", "a/.hidden.csv",
  "a.", "a/b.", "x.y/z", "100", "-", "a/b..c", "..", ".", "a/..", "a.b//", "mitdb/100.hea", "dir.d/rec",
]

@Test(arguments: paths)
func pathComponentsAsNSString(_ path: String) {
  let ns = path as NSString
  #expect(FileSystem.lastPathComponent(path) == ns.lastPathComponent)
  #expect(FileSystem.pathExtension(path) == ns.pathExtension)
  #expect(FileSystem.deletingPathExtension(path) == ns.deletingPathExtension)
}

@Test func descendantsListEverythingBelowWithoutFollowingLinks() throws {
  let root = NSTemporaryDirectory() + "vitals-fs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  defer { try? FileManager.default.removeItem(atPath: root) }
  try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
  try FileManager.default.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
  for file in ["top.csv", "a/one.edf", "a/b/two.hea", "outside/three.csv"] {
    #expect(FileManager.default.createFile(atPath: root + "/" + file, contents: Data("x".utf8)))
  }
  try FileManager.default.createSymbolicLink(atPath: root + "/a/link", withDestinationPath: root + "/outside")
  let expected = Set(FileManager.default.enumerator(atPath: root + "/a")!.compactMap { $0 as? String })
  #expect(Set(FileSystem.descendants(of: root + "/a")) == expected)
  #expect(Set(FileSystem.descendants(of: root + "/a")) == ["one.edf", "b", "b/two.hea", "link"])
  #expect(FileSystem.descendants(of: root + "/missing").isEmpty)

  #expect(FileSystem.isDirectory(root + "/a/link"))
  #expect(!FileSystem.isDirectory(root + "/top.csv"))
  #expect(FileSystem.exists(root + "/top.csv") && !FileSystem.exists(root + "/none"))
  #expect(FileSystem.size(root + "/top.csv") == 1)
  #expect(FileSystem.size(root + "/none") == nil)
  let modified = try #require(FileSystem.modificationTime(root + "/top.csv"))
  let date = try #require(
    try FileManager.default.attributesOfItem(atPath: root + "/top.csv")[.modificationDate] as? Date)
  #expect(abs(Double(modified) / 1e9 - date.timeIntervalSince1970) < 1e-5)
}

@Test func writeAllWritesEveryByteOrReportsTheReason() throws {
  var pipe: [Int32] = [0, 0]
  #expect(Glibc.pipe(&pipe) == 0)
  let bytes = [UInt8]((0..<5000).map { UInt8($0 % 251) })
  #expect(bytes.withUnsafeBytes { FileSystem.writeAll($0, toDescriptor: pipe[1]) } == nil)
  close(pipe[1])
  var received = [UInt8](repeating: 0, count: 6000)
  var count = 0
  while true {
    let n = received.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress! + count, $0.count - count) }
    if n <= 0 { break }
    count += n
  }
  close(pipe[0])
  #expect(Array(received.prefix(count)) == bytes)
  #expect(bytes.withUnsafeBytes { FileSystem.writeAll($0, toDescriptor: -1) } == "Bad file descriptor")
}

import Foundation
import GaugeClient
import Glibc

/// A real gauged for the tests: the binary the package built
/// (`.build/debug/gauged`, or `$GAUGED_BIN`), started with Foundation's
/// `Process` on a free loopback port, stopped with SIGTERM.
final class GaugedProcess: @unchecked Sendable {
  let port: UInt16
  let storeArguments: [String]
  private var process: Process?

  var target: String { "127.0.0.1:\(port)" }

  /// `storeArguments` such as `["--memory"]` or `["--data-dir", path]`.
  init(storeArguments: [String] = ["--memory"]) throws {
    self.port = try Self.freePort()
    self.storeArguments = storeArguments
    try start()
  }

  deinit {
    stop()
  }

  /// `$GAUGED_BIN`, else the gauged built beside this test bundle (any
  /// scratch path, sanitized builds too), else `.build/debug/gauged`.
  static var binary: URL {
    if let path = ProcessInfo.processInfo.environment["GAUGED_BIN"] {
      return URL(fileURLWithPath: path)
    }
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let beside = runner.deletingLastPathComponent().appendingPathComponent("gauged")
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    // Tests/GaugeClientTests/GaugedProcess.swift → the package root.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/gauged")
  }

  /// Starts gauged on `port` and waits until it answers a call.
  func start() throws {
    let process = Process()
    process.executableURL = Self.binary
    // gauged's own gauges would add widgets and revisions the tests count.
    process.arguments = ["--listen", target, "--self-widgets=off"] + storeArguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    self.process = process
    try waitUntilServing()
  }

  /// SIGTERM, then waits for the process to exit.
  func stop() {
    guard let process, process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
    self.process = nil
  }

  /// SIGSTOP: the server stops reading; its sockets stay open.
  func pause() {
    guard let process else { return }
    kill(process.processIdentifier, SIGSTOP)
    // The signal is queued; the process stops when the kernel gets to it.
    usleep(50_000)
  }

  /// SIGCONT.
  func resume() {
    if let process { kill(process.processIdentifier, SIGCONT) }
  }

  func restart() throws {
    stop()
    try start()
  }

  private func waitUntilServing() throws {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      close(fd)
      if connected == 0 { return }
      usleep(20_000)
    }
    throw GaugeError(code: .unavailable, message: "gauged did not start on \(target)")
  }

  /// A port nothing listens on now: bound to 0, read back, released.
  static func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else { throw GaugeError(code: .internal, message: "no free port") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// A fresh directory under the system's temporary one.
  static func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "gauge-client-tests-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}

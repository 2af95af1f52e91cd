import Foundation
import GaugeNATS
import Glibc

/// A real nats-server with JetStream (`-js`, its store in `storeDirectory`)
/// on a free loopback port, with more flags for a cluster node or TLS. SIGKILL,
/// SIGTERM and restart with the same ports and store; killed when the test
/// drops it.
public final class NATSServerProcess: @unchecked Sendable {
  public let name: String
  public let port: UInt16
  public let storeDirectory: String
  private let arguments: [String]
  private let logFile: String
  // Only the test's own task touches it (the class is Sendable for fixtures).
  private var process: Process?

  public var url: String { "nats://127.0.0.1:\(port)" }

  public init(name: String, directory: String, arguments: [String] = []) throws {
    self.name = name
    self.port = try freeLoopbackPort()
    self.storeDirectory = directory + "/" + name
    self.logFile = directory + "/" + name + ".log"
    self.arguments = arguments
    try FileManager.default.createDirectory(
      atPath: storeDirectory, withIntermediateDirectories: true)
  }

  deinit {
    kill()
  }

  /// `nats-server` from `$NATS_SERVER_BIN`, else the PATH (Debian puts it
  /// in /usr/sbin, which a user's PATH may lack).
  public static var binary: String {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["NATS_SERVER_BIN"] { return path }
    let directories =
      (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin"]
    for directory in directories
    where FileManager.default.isExecutableFile(atPath: directory + "/nats-server") {
      return directory + "/nats-server"
    }
    return "nats-server"
  }

  /// Starts the server and waits until it accepts connections.
  public func start() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments =
      ["-js", "-sd", storeDirectory, "-a", "127.0.0.1", "-p", String(port), "-n", name]
      + arguments
    if !FileManager.default.fileExists(atPath: logFile) {
      _ = FileManager.default.createFile(atPath: logFile, contents: nil)
    }
    let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
    log.seekToEndOfFile()
    process.standardOutput = log
    process.standardError = log
    try process.run()
    self.process = process
    try waitUntilListening()
  }

  /// SIGKILL: the node is gone at once, as in a crash.
  public func kill() {
    guard let process, process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    self.process = nil
  }

  /// SIGTERM, then waits for the server to exit.
  public func stop() {
    guard let process, process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
    self.process = nil
  }

  private func waitUntilListening() throws {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      if acceptsConnections(port: port) { return }
      guard process?.isRunning == true else { break }
      usleep(20_000)
    }
    let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    throw TestFailure("nats-server \(name) did not start on \(port):\n\(log.suffix(2_000))")
  }
}

public struct TestFailure: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// Runs `body` with a fresh directory under /tmp, removed afterwards
/// whatever `body` does.
public func withTemporaryDirectory<Result>(
  _ body: (String) async throws -> Result
) async throws -> Result {
  let path = NSTemporaryDirectory() + "gauged-nats-test-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(path)
}

public func acceptsConnections(port: UInt16) -> Bool {
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  } == 0
}

/// A port nothing listens on now: bound to 0, read back, released.
public func freeLoopbackPort() throws -> UInt16 {
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
  guard bound else { throw TestFailure("no free port") }
  return UInt16(bigEndian: address.sin_port)
}

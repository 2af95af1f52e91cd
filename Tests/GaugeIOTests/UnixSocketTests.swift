import GaugeIO
import Glibc
import Testing

/// A socket path of its own for each test, removed whatever the test left there.
private func withSocketPath(_ body: (String) throws -> Void) throws {
  let path = "/tmp/gaugeio-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
  defer { unlink(path) }
  try body(path)
}

/// Makes a socket file that nothing listens on: what a killed server leaves.
private func makeStaleSocketFile(at path: String) throws {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  let address = try SocketAddress(parsing: "unix:\(path)")
  // Syscall.bind is public and takes the same address the listener would.
  try Syscall.bind(fd: fd, address: address)
}

/// How many connections a test can queue: the kernel's cap on a listen
/// queue, and the descriptors this process may open (raised to its hard limit).
private func queueableConnections() -> Int {
  let descriptors = (try? Syscall.raiseOpenFileLimitToHardLimit()) ?? 0
  let fd = open("/proc/sys/net/core/somaxconn", O_RDONLY)
  guard fd >= 0 else { return 0 }
  defer { close(fd) }
  var bytes = [UInt8](repeating: 0, count: 32)
  let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
  guard count > 0 else { return 0 }
  let text = String(decoding: bytes[..<count], as: UTF8.self)
  let somaxconn = Int(text.trimmingPrefix(" ").prefix { $0.isNumber }) ?? 0
  return min(somaxconn, descriptors - 100)
}

@Suite struct UnixSocketAddressTests {
  @Test func parsesAbsoluteRelativeAndTripleSlashForms() throws {
    let absolute = try SocketAddress(parsing: "unix:/run/gauged.sock")
    #expect(absolute.unixPath == "/run/gauged.sock")
    #expect(absolute.description == "unix:/run/gauged.sock")
    #expect(absolute.port == 0)
    #expect(try SocketAddress(parsing: "unix:///run/gauged.sock") == absolute)
    #expect(try SocketAddress(parsing: "unix:gauged.sock").unixPath == "gauged.sock")
  }

  @Test func clientsNameAUnixSocketServerLocalhost() throws {
    #expect(try SocketAddress(parsing: "unix:/run/gauged.sock").authority == "localhost")
    #expect(try SocketAddress(parsing: "127.0.0.1:50051").authority == "127.0.0.1:50051")
    #expect(try SocketAddress(parsing: "127.0.0.1:50051").unixPath == nil)
  }

  @Test func acceptsAPathOfTheLargestLengthSunPathHolds() throws {
    let path = "/" + String(repeating: "a", count: SocketAddress.maxUnixPathBytes - 1)
    #expect(try SocketAddress(parsing: "unix:\(path)").unixPath == path)
  }

  @Test(arguments: [
    ("unix:", "missing the socket's path after unix:"),
    ("unix://run/gauged.sock", "unix:// must be followed by an absolute path"),
    ("unix:/run/a\u{0}b", "a socket path cannot hold a NUL byte"),
    ("unix:/" + String(repeating: "a", count: 107), "a socket path has at most 107 bytes"),
  ])
  func rejectsPathsTheKernelCannotTake(_ text: String, _ reason: String) {
    #expect {
      try SocketAddress(parsing: text)
    } throws: { error in
      guard let error = error as? SocketAddressError else { return false }
      return error.input == text && error.reason.hasPrefix(reason)
    }
  }
}

@Suite struct UnixSocketListenerTests {
  @Test func carriesBytesBothWays() throws {
    try withSocketPath { path throws in
      let listener = try ListeningSocket(address: SocketAddress(parsing: "unix:\(path)"))
      defer { listener.close() }
      #expect(listener.localAddress.description == "unix:\(path)")
      let client = try ConnectedSocket.connect(to: listener.localAddress, timeout: .seconds(5))
      defer { client.close() }
      guard case .processed(let server) = try listener.accept() else {
        Issue.record("the queued connection was not accepted")
        return
      }
      defer { server.close() }
      try client.writeAll("ping")
      #expect(try server.read(count: 4) == "ping")
      try server.writeAll("pong")
      #expect(try client.read(count: 4) == "pong")
    }
  }

  @Test func closingRemovesTheSocketFile() throws {
    try withSocketPath { path throws in
      let listener = try ListeningSocket(address: SocketAddress(parsing: "unix:\(path)"))
      #expect(try Syscall.fileIdentity(at: path)?.isSocket == true)
      listener.close()
      #expect(try Syscall.fileIdentity(at: path) == nil)
    }
  }

  @Test func closingKeepsAFileMadeAtThePathSince() throws {
    try withSocketPath { path throws in
      let listener = try ListeningSocket(address: SocketAddress(parsing: "unix:\(path)"))
      try Syscall.unlink(path: path)
      let file = open(path, O_CREAT | O_WRONLY, 0o600)
      close(file)
      listener.close()
      #expect(try Syscall.fileIdentity(at: path)?.isSocket == false)
    }
  }

  @Test func replacesASocketFileNothingListensOn() throws {
    try withSocketPath { path throws in
      try makeStaleSocketFile(at: path)
      #expect(try Syscall.fileIdentity(at: path)?.isSocket == true)
      #expect(throws: IOError(call: "connect", errno: ECONNREFUSED)) {
        _ = try ConnectedSocket.connect(to: SocketAddress(parsing: "unix:\(path)"))
      }
      let listener = try ListeningSocket(address: SocketAddress(parsing: "unix:\(path)"))
      defer { listener.close() }
      let client = try ConnectedSocket.connect(to: listener.localAddress, timeout: .seconds(5))
      client.close()
    }
  }

  @Test func refusesThePathOfALiveServerAndLeavesItServing() throws {
    try withSocketPath { path throws in
      let address = try SocketAddress(parsing: "unix:\(path)")
      let first = try ListeningSocket(address: address)
      defer { first.close() }
      #expect(throws: IOError(call: "bind", errno: EADDRINUSE)) {
        _ = try ListeningSocket(address: address)
      }
      let client = try ConnectedSocket.connect(to: address, timeout: .seconds(5))
      defer { client.close() }
      guard case .processed(let server) = try first.accept() else {
        Issue.record("the first listener lost its socket file")
        return
      }
      server.close()
    }
  }

  @Test func refusesAPathHoldingAnotherKindOfFile() throws {
    try withSocketPath { path throws in
      let file = open(path, O_CREAT | O_WRONLY, 0o600)
      close(file)
      #expect(throws: IOError(call: "bind", errno: EADDRINUSE)) {
        _ = try ListeningSocket(address: SocketAddress(parsing: "unix:\(path)"))
      }
      #expect(try Syscall.fileIdentity(at: path)?.isSocket == false)
    }
  }

  /// More than the 1,024 connections the listener used to queue, when the
  /// kernel (`net.core.somaxconn`) and this process's descriptors allow it.
  @Test(.enabled(if: queueableConnections() > 1100))
  func queuesAsManyConnectionsAsTheKernelAllows() throws {
    try withSocketPath { path throws in
      let listener = try ListeningSocket(address: SocketAddress(parsing: "unix:\(path)"))
      defer { listener.close() }
      var clients: [Int32] = []
      defer { for fd in clients { close(fd) } }
      let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
      while clients.count < 1100 {
        let fd = try Syscall.socket(domain: AF_UNIX, type: type, protocol: 0)
        clients.append(fd)
        do {
          _ = try Syscall.connect(fd: fd, address: listener.localAddress)
        } catch {
          Issue.record("the queue was full after \(clients.count - 1) connections: \(error)")
          return
        }
      }
    }
  }

  @Test func connectWaitsForRoomInAFullListenQueue() throws {
    try withSocketPath { path throws in
      let listener = try ListeningSocket(
        address: SocketAddress(parsing: "unix:\(path)"), backlog: 1)
      defer { listener.close() }
      var queued: [ConnectedSocket] = []
      defer { for socket in queued { socket.close() } }
      // Fill the queue: the kernel admits a connection or two past the backlog.
      var full = false
      for _ in 0..<8 where !full {
        do {
          queued.append(
            try ConnectedSocket.connect(to: listener.localAddress, timeout: .milliseconds(20)))
        } catch {
          #expect(error as? IOError == IOError(call: "connect", errno: ETIMEDOUT))
          full = true
        }
      }
      #expect(full, "the listen queue never filled")
      // Room made while a connect waits lets it through.
      let listenerFD = listener.fd
      let accepting = try PosixThread.spawn(name: "accept") {
        usleep(50_000)
        if case .processed(let server) = try? Syscall.accept4(fd: listenerFD) {
          Syscall.close(fd: server)
        }
      }
      let waited = try ConnectedSocket.connect(to: listener.localAddress, timeout: .seconds(5))
      accepting.join()
      waited.close()
    }
  }
}

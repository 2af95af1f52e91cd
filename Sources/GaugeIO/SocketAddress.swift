import Glibc

/// An IPv4 or IPv6 address and TCP port, or the path of a Unix domain socket.
public struct SocketAddress: Sendable, Equatable, CustomStringConvertible {
  enum Host: Sendable, Equatable {
    /// `in_addr.s_addr`, in network byte order.
    case ipv4(UInt32)
    /// The 16 bytes of `in6_addr` as two words, kept in memory order.
    case ipv6(UInt64, UInt64, scopeID: UInt32)
    /// A filesystem path, as `sockaddr_un.sun_path` holds it.
    case unixDomain(path: String)
  }

  let host: Host
  let rawPort: UInt16

  /// The TCP port; 0 for a Unix domain socket.
  public var port: Int { Int(rawPort) }

  /// The socket file's path for a Unix domain socket; nil for TCP.
  public var unixPath: String? {
    guard case .unixDomain(let path) = host else { return nil }
    return path
  }

  /// The `:authority` a client names this server by. gRPC clients send
  /// `localhost` to Unix domain sockets: a path is no valid authority.
  public var authority: String {
    unixPath == nil ? description : "localhost"
  }

  /// True for addresses only this machine can reach: 127.0.0.0/8, ::1,
  /// IPv4-mapped loopback, and Unix domain sockets.
  public var isLocalOnly: Bool {
    switch host {
    case .ipv4(let word):
      return UInt32(bigEndian: word) >> 24 == 127
    case .ipv6(let high, let low, _):
      // Both words hold the address's bytes in memory order.
      let bytes = withUnsafeBytes(of: (high, low)) { Array($0) }
      if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return true }
      let mapped = bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff
      return mapped && bytes[12] == 127
    case .unixDomain:
      return true
    }
  }

  /// `sun_path` holds 108 bytes with the terminating NUL.
  public static let maxUnixPathBytes = 107

  init(host: Host, port: UInt16) {
    self.host = host
    self.rawPort = port
  }

  /// Parses `127.0.0.1:50051`, `[::1]:50051` or `localhost:50051`, or a
  /// Unix domain socket in gRPC's naming: `unix:PATH` (relative or
  /// absolute) or `unix:///ABSOLUTE/PATH`.
  ///
  /// Only numeric hosts and `localhost` (IPv4 loopback) are accepted: resolving other names
  /// would make parsing block on DNS.
  public init(parsing text: String) throws(SocketAddressError) {
    func failure(_ reason: String) -> SocketAddressError {
      SocketAddressError(input: text, reason: reason)
    }
    if text.hasPrefix("unix:") {
      self.init(host: .unixDomain(path: try Self.parseUnixPath(text)), port: 0)
      return
    }
    let hostText: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { throw failure("missing ']'") }
      hostText = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.first == ":" else { throw failure("expected ':' and a port after ']'") }
      portText = rest.dropFirst()
    } else {
      guard let colon = text.lastIndex(of: ":") else { throw failure("missing ':port'") }
      hostText = text[..<colon]
      portText = text[text.index(after: colon)...]
      if hostText.contains(":") { throw failure("IPv6 hosts must be written in brackets") }
    }
    guard let port = Self.parsePort(portText) else {
      throw failure("port must be a number from 0 to 65535")
    }
    guard let host = Self.parseHost(hostText, bracketed: text.hasPrefix("[")) else {
      throw failure("host must be an IPv4 address, a bracketed IPv6 address or localhost")
    }
    self.init(host: host, port: port)
  }

  public var description: String {
    switch host {
    case .ipv4: "\(hostText):\(port)"
    case .ipv6: "[\(hostText)]:\(port)"
    case .unixDomain(let path): "unix:\(path)"
    }
  }

  private static func parseUnixPath(_ text: String) throws(SocketAddressError) -> String {
    func failure(_ reason: String) -> SocketAddressError {
      SocketAddressError(input: text, reason: reason)
    }
    let path: Substring
    if text.hasPrefix("unix://") {
      path = text.dropFirst("unix://".count)
      guard path.hasPrefix("/") else {
        throw failure("unix:// must be followed by an absolute path (unix:///run/gauged.sock)")
      }
    } else {
      path = text.dropFirst("unix:".count)
    }
    guard !path.isEmpty else { throw failure("missing the socket's path after unix:") }
    guard !path.utf8.contains(0) else { throw failure("a socket path cannot hold a NUL byte") }
    guard path.utf8.count <= maxUnixPathBytes else {
      throw failure("a socket path has at most \(maxUnixPathBytes) bytes")
    }
    return String(path)
  }

  private static func parsePort(_ text: Substring) -> UInt16? {
    guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      return nil
    }
    return UInt16(text)
  }

  private static func parseHost(_ text: Substring, bracketed: Bool) -> Host? {
    if bracketed {
      var address = in6_addr()
      guard inet_pton(AF_INET6, String(text), &address) == 1 else { return nil }
      return withUnsafeBytes(of: address) { bytes in
        .ipv6(
          bytes.loadUnaligned(as: UInt64.self),
          bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
          scopeID: 0)
      }
    }
    if text == "localhost" {
      return .ipv4(UInt32(INADDR_LOOPBACK).bigEndian)
    }
    var address = in_addr()
    guard inet_pton(AF_INET, String(text), &address) == 1 else { return nil }
    return .ipv4(address.s_addr)
  }

  private var hostText: String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
      let converted: UnsafePointer<CChar>?
      switch host {
      case .ipv4(let word):
        var address = in_addr(s_addr: word)
        converted = inet_ntop(AF_INET, &address, buffer.baseAddress, socklen_t(buffer.count))
      case .ipv6(let high, let low, _):
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { bytes in
          bytes.storeBytes(of: high, as: UInt64.self)
          bytes.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
        }
        converted = inet_ntop(AF_INET6, &address, buffer.baseAddress, socklen_t(buffer.count))
      case .unixDomain(let path):
        return path
      }
      return converted.map { String(cString: $0) } ?? "?"
    }
  }
}

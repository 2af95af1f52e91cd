import Glibc

extension SocketAddress {
  var family: Int32 {
    switch host {
    case .ipv4: AF_INET
    case .ipv6: AF_INET6
    case .unixDomain: AF_UNIX
    }
  }

  /// Reads the address a socket call filled in; nil for families other than IPv4, IPv6 and
  /// Unix. An unnamed Unix socket (a client's end) reads as an empty path.
  init?(storage: sockaddr_storage) {
    var storage = storage
    let family = Int32(storage.ss_family)
    let parsed: SocketAddress? = withUnsafeBytes(of: &storage) { bytes in
      switch family {
      case AF_INET:
        let address = bytes.loadUnaligned(as: sockaddr_in.self)
        return SocketAddress(
          host: .ipv4(address.sin_addr.s_addr), port: UInt16(bigEndian: address.sin_port))
      case AF_INET6:
        let address = bytes.loadUnaligned(as: sockaddr_in6.self)
        return withUnsafeBytes(of: address.sin6_addr) { words in
          SocketAddress(
            host: .ipv6(
              words.loadUnaligned(as: UInt64.self),
              words.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
              scopeID: address.sin6_scope_id),
            port: UInt16(bigEndian: address.sin6_port))
        }
      case AF_UNIX:
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let pathBytes = bytes[pathOffset..<MemoryLayout<sockaddr_un>.size]
        let path = pathBytes.prefix { $0 != 0 }
        return SocketAddress(
          host: .unixDomain(path: String(decoding: path, as: UTF8.self)), port: 0)
      default:
        return nil
      }
    }
    guard let parsed else { return nil }
    self = parsed
  }

  /// Calls `body` with this address as a C `sockaddr` and its length.
  func withSockAddr<Result>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
  ) -> Result {
    switch host {
    case .ipv4(let word):
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = rawPort.bigEndian
      address.sin_addr.s_addr = word
      return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    case .ipv6(let high, let low, let scopeID):
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = rawPort.bigEndian
      address.sin6_scope_id = scopeID
      withUnsafeMutableBytes(of: &address.sin6_addr) { bytes in
        bytes.storeBytes(of: high, as: UInt64.self)
        bytes.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
      }
      return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    case .unixDomain(let path):
      // Parsing kept the path within sun_path, with room for its NUL.
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
      let length = withUnsafeMutableBytes(of: &address) { bytes in
        var path = path
        return path.withUTF8 { utf8 in
          UnsafeMutableRawBufferPointer(rebasing: bytes[pathOffset..<pathOffset + utf8.count])
            .copyMemory(from: UnsafeRawBufferPointer(utf8))
          return pathOffset + utf8.count + 1
        }
      }
      return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          body($0, socklen_t(length))
        }
      }
    }
  }
}

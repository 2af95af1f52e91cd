import Glibc

extension SocketAddress {
  var family: Int32 {
    switch host {
    case .ipv4: AF_INET
    case .ipv6: AF_INET6
    }
  }

  /// Reads the address a socket call filled in; nil for families other than IPv4 and IPv6.
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
    }
  }
}

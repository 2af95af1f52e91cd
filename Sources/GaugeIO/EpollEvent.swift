/// Linux's `struct epoll_event`, read and written as raw bytes because the Glibc module does
/// not import it and its layout differs by architecture.
struct EpollEvent {
  var events: UInt32
  var data: UInt64

  #if arch(x86_64)
    // glibc declares the struct packed on x86_64 only.
    static let byteCount = 12
    private static let dataOffset = 4
  #else
    static let byteCount = 16
    private static let dataOffset = 8
  #endif

  init(events: UInt32, data: UInt64) {
    self.events = events
    self.data = data
  }

  init(loadingFrom raw: UnsafeRawPointer) {
    events = raw.loadUnaligned(as: UInt32.self)
    data = raw.loadUnaligned(fromByteOffset: Self.dataOffset, as: UInt64.self)
  }

  func store(to raw: UnsafeMutableRawPointer) {
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: Self.byteCount)
    raw.storeBytes(of: events, as: UInt32.self)
    raw.storeBytes(of: data, toByteOffset: Self.dataOffset, as: UInt64.self)
  }
}

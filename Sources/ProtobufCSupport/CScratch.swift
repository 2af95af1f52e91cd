import CProtobufC

/// Memory for the C structs, strings and byte buffers of one message being
/// built for packing: protobuf-c packs from a graph of C pointers, and all of
/// it must outlive the pack call. Everything is freed at once when the
/// scratch goes away, so an encoder allocates freely and never frees.
public struct CScratch: ~Copyable {
  private var blocks: [UnsafeMutableRawPointer] = []

  public init() {}

  deinit {
    for block in blocks { block.deallocate() }
  }

  private mutating func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: max(byteCount, 1), alignment: alignment)
    blocks.append(block)
    return block
  }

  /// A C message initialised by its generated `<type>__init`, so its
  /// descriptor is set and every field is absent.
  public mutating func message<Message>(
    _ initialize: (UnsafeMutablePointer<Message>?) -> Void
  ) -> UnsafeMutablePointer<Message> {
    let message = allocate(
      byteCount: MemoryLayout<Message>.size, alignment: MemoryLayout<Message>.alignment
    ).bindMemory(to: Message.self, capacity: 1)
    initialize(message)
    return message
  }

  /// A C array for a repeated field, with its count; nil when empty, as
  /// protobuf-c expects alongside a zero count.
  public mutating func array<Element>(_ elements: [Element]) -> UnsafeMutablePointer<Element>? {
    guard !elements.isEmpty else { return nil }
    let start = allocate(
      byteCount: MemoryLayout<Element>.stride * elements.count,
      alignment: MemoryLayout<Element>.alignment
    ).bindMemory(to: Element.self, capacity: elements.count)
    _ = UnsafeMutableBufferPointer(start: start, count: elements.count)
      .initialize(fromContentsOf: elements)
    return start
  }

  /// A NUL-terminated copy; a string holding U+0000 ends there in C.
  public mutating func cString(_ string: String) -> UnsafeMutablePointer<CChar> {
    let utf8 = Array(string.utf8) + [0]
    let start = allocate(byteCount: utf8.count, alignment: 1)
    start.copyMemory(from: utf8, byteCount: utf8.count)
    return start.bindMemory(to: CChar.self, capacity: utf8.count)
  }

  /// A `bytes` field holding a copy of `bytes`.
  public mutating func binary(_ bytes: [UInt8]) -> ProtobufCBinaryData {
    let start = allocate(byteCount: bytes.count, alignment: 1)
    if !bytes.isEmpty {
      bytes.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }
    return ProtobufCBinaryData(len: bytes.count, data: start.assumingMemoryBound(to: UInt8.self))
  }

  /// A `bytes` field of `count` zero bytes.
  public mutating func zeros(count: Int) -> ProtobufCBinaryData {
    let start = allocate(byteCount: count, alignment: 1)
    start.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
    return ProtobufCBinaryData(len: count, data: start.assumingMemoryBound(to: UInt8.self))
  }
}

/// Scratch memory for the C structs, pointer arrays and strings of one encode.
///
/// protobuf-c packs from a graph of C structs that point at NUL-terminated
/// strings; everything in that graph must outlive the pack call. Bump
/// allocation keeps that to one block per message instead of one malloc
/// per string. The first block is on the stack (`withArena`): a widget's
/// graph fits in it, so the UpdateWidget and GetWidget answers and a
/// subscription's events encode without malloc. Larger graphs (a list
/// page) go on in heap blocks, freed once, in `deinit`.
struct EncodeArena: ~Copyable {
  /// Not more: above 1 KiB the standard library may put a temporary
  /// allocation on the heap.
  static let stackBlockSize = 1024

  /// Each block starts with a pointer to the previous block, so the chain
  /// can be freed without a Swift array.
  private static let headerSize = MemoryLayout<UnsafeMutableRawPointer?>.stride
  private static let firstBlockSize = 2048
  private static let largestBlockSize = 64 * 1024

  private var newestBlock: UnsafeMutableRawPointer?
  private var nextFree: UnsafeMutableRawPointer?
  private var bytesLeft = 0
  private var nextBlockSize = EncodeArena.firstBlockSize

  private init(stackBlock: UnsafeMutableRawBufferPointer) {
    nextFree = stackBlock.baseAddress
    bytesLeft = stackBlock.count
  }

  /// Runs `body` with an arena whose first block is on the stack; whatever
  /// it encodes must be packed before `body` returns.
  static func withArena<Result>(_ body: (inout EncodeArena) -> Result) -> Result {
    withUnsafeTemporaryAllocation(byteCount: stackBlockSize, alignment: 16) { block in
      var arena = EncodeArena(stackBlock: block)
      return body(&arena)
    }
  }

  deinit {
    var block = newestBlock
    while let current = block {
      block = current.load(as: UnsafeMutableRawPointer?.self)
      current.deallocate()
    }
  }

  mutating func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
    if let start = nextFree {
      let padding = (alignment - Int(bitPattern: start) % alignment) % alignment
      if padding + byteCount <= bytesLeft {
        nextFree = start + padding + byteCount
        bytesLeft -= padding + byteCount
        return start + padding
      }
    }
    startBlock(fitting: byteCount + alignment)
    return allocate(byteCount: byteCount, alignment: alignment)
  }

  /// A C message initialised by its generated `<type>__init`, so `base`
  /// points at the right descriptor and every field is absent.
  mutating func message<Message>(
    _ initialize: (UnsafeMutablePointer<Message>?) -> Void
  ) -> UnsafeMutablePointer<Message> {
    let raw = allocate(
      byteCount: MemoryLayout<Message>.size, alignment: MemoryLayout<Message>.alignment)
    let message = raw.bindMemory(to: Message.self, capacity: 1)
    initialize(message)
    return message
  }

  /// A C array for a repeated field; nil when empty, as protobuf-c expects
  /// alongside a zero count.
  mutating func array<Element>(
    of elements: some Collection<Element>
  ) -> UnsafeMutablePointer<Element>? {
    guard !elements.isEmpty else { return nil }
    let raw = allocate(
      byteCount: MemoryLayout<Element>.stride * elements.count,
      alignment: MemoryLayout<Element>.alignment)
    let buffer = UnsafeMutableBufferPointer(
      start: raw.bindMemory(to: Element.self, capacity: elements.count), count: elements.count)
    _ = buffer.initialize(fromContentsOf: elements)
    return buffer.baseAddress
  }

  /// A NUL-terminated copy. A string containing U+0000 ends there in C;
  /// decoding rejects such strings, so none reach a stored widget.
  mutating func cString(_ string: String) -> UnsafeMutablePointer<CChar> {
    let utf8 = string.utf8
    let raw = allocate(byteCount: utf8.count + 1, alignment: 1)
    let bytes = UnsafeMutableRawBufferPointer(start: raw, count: utf8.count + 1)
    bytes[utf8.count] = 0
    _ = bytes.initializeMemory(as: UInt8.self, fromContentsOf: utf8)
    return raw.bindMemory(to: CChar.self, capacity: utf8.count + 1)
  }

  mutating func cString(_ string: String?) -> UnsafeMutablePointer<CChar>? {
    string.map { cString($0) }
  }

  private mutating func startBlock(fitting byteCount: Int) {
    let size = max(nextBlockSize, byteCount + Self.headerSize)
    nextBlockSize = min(nextBlockSize * 2, Self.largestBlockSize)
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: size, alignment: MemoryLayout<UnsafeMutableRawPointer>.alignment)
    block.storeBytes(of: newestBlock, as: UnsafeMutableRawPointer?.self)
    newestBlock = block
    nextFree = block + Self.headerSize
    bytesLeft = size - Self.headerSize
  }
}

import Testing

@testable import GRPCCore

@Suite struct MessageFramerTests {
  /// A message laid out in place is prefixed and appended after what the
  /// buffer held, on either side of the size laid out on the stack.
  @Test(arguments: [0, 1, 40, 1018, 1019, 1020, 5000])
  func messageWrittenInPlaceIsFramedAfterTheBuffer(size: Int) {
    var buffer: [UInt8] = [9, 9]
    let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    MessageFramer.append(size: size, to: &buffer) { bytes in
      #expect(bytes.count == size)
      bytes.copyBytes(from: message)
    }
    let length = UInt32(size)
    let prefix: [UInt8] = [
      0, UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16),
      UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
    ]
    #expect(buffer == [9, 9] + prefix + message)
    var copied: [UInt8] = [9, 9]
    MessageFramer.append(message, to: &copied)
    #expect(copied == buffer)
  }
}

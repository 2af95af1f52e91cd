import GaugeIO
import Glibc

/// The socket floor's wire: no HTTP/2 and no gRPC, only what one update
/// reaching many connections cannot do without. A client's first byte on a
/// connection says what the connection is for.
enum SocketFloorProtocol {
  /// Wants every message; the server answers with `registered` once the
  /// connection is on a loop's list.
  static let subscriber: UInt8 = 0x53
  /// Then sends 8-byte clock readings (little-endian), each fanned out as one
  /// message to every subscriber.
  static let producer: UInt8 = 0x50
  static let registered: UInt8 = 0x52
  static let stampBytes = 8
  /// What gauged sends each subscriber of the connections scenario per
  /// update: a 9-byte DATA frame header and a 72-byte gRPC message.
  static let defaultMessageBytes = 81

  /// Writes a few bytes into a connection that has sent nothing unacknowledged:
  /// its empty send buffer takes them whole, so a short write is an error.
  static func send(_ bytes: [UInt8], on socket: ConnectedSocket) throws(IOError) {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(IOError) in try socket.write(buffer) }
    }
    guard case .processed(bytes.count) = try result.get() else {
      throw IOError(call: "send", errno: EAGAIN)
    }
  }
}

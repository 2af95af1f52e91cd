import CNATS

/// Reading a key-value message that libnats delivered: its key, its value
/// and whether it marks a deletion.
enum KVMessage {
  enum Marker {
    case delete
    case purge
  }

  /// The marker the message's `KV-Operation` header names; nil for a value.
  static func operation(of message: OpaquePointer) -> Marker? {
    var value: UnsafePointer<CChar>?
    guard natsMsgHeader_Get(message, operationHeader, &value) == NATS_OK, let value else {
      // No headers, or not this one: a value.
      return nil
    }
    switch String(cString: value) {
    case "DEL": return .delete
    case "PURGE": return .purge
    default: return nil
    }
  }

  static func data(of message: OpaquePointer) -> [UInt8] {
    let count = Int(natsMsg_GetDataLength(message))
    guard count > 0, let data = natsMsg_GetData(message) else { return [] }
    return data.withMemoryRebound(to: UInt8.self, capacity: count) {
      Array(UnsafeBufferPointer(start: $0, count: count))
    }
  }

  /// The change a watched message makes, with `revision` from its metadata.
  static func change(of message: OpaquePointer, keyPrefix: String, revision: UInt64) -> KVChange? {
    guard let subject = natsMsg_GetSubject(message) else { return nil }
    let name = String(cString: subject)
    guard name.hasPrefix(keyPrefix) else { return nil }
    let key = String(name.dropFirst(keyPrefix.count))
    let operation: KVChange.Operation
    switch Self.operation(of: message) {
    case .delete: operation = .delete
    case .purge: operation = .purge
    case nil: operation = .put(data(of: message))
    }
    return KVChange(key: key, operation: operation, revision: revision)
  }
}

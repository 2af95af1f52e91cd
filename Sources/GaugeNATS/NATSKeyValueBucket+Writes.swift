import CNATS

/// `KV-Operation`, the header that marks deletes and purges.
let operationHeader = "KV-Operation"

extension NATSKeyValueBucket {
  /// What a write requires of the key's last revision.
  enum Expectation {
    case anything
    /// The key must have no message yet (delete markers count as messages;
    /// `create` handles them).
    case noMessage
    case lastRevision(UInt64)
  }

  /// Writes `value` whatever the key holds; returns the new revision.
  public func put(_ key: String, _ value: [UInt8]) throws(NATSError) -> UInt64 {
    switch try publish("put", key: key, value: value, marker: nil, expecting: .anything) {
    case .written(let revision): return revision
    case .conflict:
      throw NATSError(operation: "put", kind: .failed, detail: "conflict on an unconditional put")
    }
  }

  /// Writes `value` only when the key does not exist (never written, or
  /// deleted); `.conflict` when it does.
  public func create(_ key: String, _ value: [UInt8]) throws(NATSError) -> KVWriteResult {
    let first = try publish("create", key: key, value: value, marker: nil, expecting: .noMessage)
    guard first == .conflict else { return first }
    // The key has messages; if the last one is a delete marker, the key is
    // absent and may be created over that marker's revision.
    guard let marker = try lastMarkerRevision(of: key, operation: "create") else {
      return .conflict
    }
    return try publish(
      "create", key: key, value: value, marker: nil, expecting: .lastRevision(marker))
  }

  /// Writes `value` only when the key's last revision is `revision`
  /// (compare-and-set); `.conflict` when another write came between.
  public func update(
    _ key: String, _ value: [UInt8], expectingRevision revision: UInt64
  ) throws(NATSError) -> KVWriteResult {
    try publish("update", key: key, value: value, marker: nil, expecting: .lastRevision(revision))
  }

  /// Writes a delete marker: the key reads as absent, and watches see the
  /// deletion with the marker's revision. With `expectingRevision`, only
  /// when that is the key's last revision.
  public func delete(
    _ key: String, expectingRevision revision: UInt64? = nil
  ) throws(NATSError) -> KVWriteResult {
    let expectation = revision.map { Expectation.lastRevision($0) } ?? .anything
    return try publish("delete", key: key, value: [], marker: "DEL", expecting: expectation)
  }

  /// Writes a purge marker and drops the key's earlier revisions from the
  /// bucket; watches see it as `.purge`.
  public func purge(_ key: String) throws(NATSError) {
    try KVKey.check(key, operation: "purge")
    let status = kvStore_Purge(bucket, key, nil)
    guard status == NATS_OK else { throw NATSError.from(status, operation: "purge \(key)") }
  }

  /// One JetStream publish to the key's subject, with the expectation as a
  /// header JetStream checks: the KV write every other method is made of.
  func publish(
    _ operation: String, key: String, value: [UInt8], marker: String?, expecting: Expectation
  ) throws(NATSError) -> KVWriteResult {
    let message = try keyMessage(operation, key: key, value: value)
    defer { natsMsg_Destroy(message) }
    if let marker {
      let status = natsMsgHeader_Set(message, operationHeader, marker)
      guard status == NATS_OK else {
        throw NATSError.from(status, operation: "\(operation) \(key)")
      }
    }
    var publishOptions = jsPubOptions()
    jsPubOptions_Init(&publishOptions)
    switch expecting {
    case .anything: break
    case .noMessage: publishOptions.ExpectNoMessage = true
    case .lastRevision(let revision): publishOptions.ExpectLastSubjectSeq = revision
    }
    var acknowledgement: UnsafeMutablePointer<jsPubAck>?
    var errorCode = jsErrCode(rawValue: 0)
    let status = js_PublishMsg(
      &acknowledgement, jetStream, message, &publishOptions, &errorCode)
    defer { jsPubAck_Destroy(acknowledgement) }
    if status == NATS_OK, let acknowledgement {
      return .written(revision: acknowledgement.pointee.Sequence)
    }
    if errorCode == JSStreamWrongLastSequenceErr {
      return .conflict
    }
    throw NATSError.from(status, jetStreamCode: errorCode, operation: "\(operation) \(key)")
  }

  /// A message to the key's subject holding `value`, the key checked and
  /// the connection up first (a write made while disconnected would wait
  /// in libnats's buffer and land later). The caller destroys it, unless
  /// libnats took it.
  func keyMessage(_ operation: String, key: String, value: [UInt8]) throws(NATSError)
    -> OpaquePointer
  {
    try KVKey.check(key, operation: operation)
    try requireConnected("\(operation) \(key)")
    var message: OpaquePointer?
    let status = value.withUnsafeBytes { bytes in
      natsMsg_Create(
        &message, keyPrefix + key, nil, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
        Int32(bytes.count))
    }
    guard status == NATS_OK, let message else {
      throw NATSError.from(status, operation: "\(operation) \(key)")
    }
    return message
  }

  /// The revision of the key's last message when that message is a delete
  /// or purge marker; nil when it holds a value or there is none.
  private func lastMarkerRevision(of key: String, operation: String) throws(NATSError) -> UInt64? {
    var message: OpaquePointer?
    var errorCode = jsErrCode(rawValue: 0)
    let status = js_GetLastMsg(&message, jetStream, streamName, keyPrefix + key, nil, &errorCode)
    if status == NATS_NOT_FOUND || errorCode == JSNoMessageFoundErr { return nil }
    guard status == NATS_OK, let message else {
      throw NATSError.from(status, jetStreamCode: errorCode, operation: "\(operation) \(key)")
    }
    defer { natsMsg_Destroy(message) }
    guard KVMessage.operation(of: message) != nil else { return nil }
    return natsMsg_GetSequence(message)
  }
}

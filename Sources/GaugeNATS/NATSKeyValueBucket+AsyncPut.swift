import CNATS

extension NATSKeyValueBucket {
  /// Sends a put without waiting for JetStream: `completion` gets the new
  /// revision, or the failure, on libnats's thread once JetStream answers.
  /// Puts to one key are stored in the order they were sent. Throws when
  /// the put could not be sent at all (and `completion` is never called);
  /// blocks for a while when thousands of puts are unanswered.
  public func putAsync(
    _ key: String, _ value: [UInt8],
    completion: @escaping @Sendable (Result<UInt64, NATSError>) -> Void
  ) throws(NATSError) {
    try publishAsync("put", key: key, value: value, expectingRevision: nil, completion: completion)
  }

  /// `update` without waiting for JetStream: `completion` gets `.written`
  /// or `.conflict` (another write came since `revision`), or the failure,
  /// on libnats's thread. Throws as `putAsync` does.
  public func updateAsync(
    _ key: String, _ value: [UInt8], expectingRevision revision: UInt64,
    completion: @escaping @Sendable (Result<KVWriteResult, NATSError>) -> Void
  ) throws(NATSError) {
    try publishAsync("update", key: key, value: value, expectingRevision: revision) { result in
      switch result {
      case .success(let written):
        completion(.success(.written(revision: written)))
      case .failure(let error)
      where error.jetStreamCode == Int32(JSStreamWrongLastSequenceErr.rawValue):
        completion(.success(.conflict))
      case .failure(let error):
        completion(.failure(error))
      }
    }
  }

  private func publishAsync(
    _ operation: String, key: String, value: [UInt8], expectingRevision: UInt64?,
    completion: @escaping @Sendable (Result<UInt64, NATSError>) -> Void
  ) throws(NATSError) {
    let created = try keyMessage(operation, key: key, value: value)
    var message: OpaquePointer? = created
    var options = jsPubOptions()
    jsPubOptions_Init(&options)
    if let expectingRevision { options.ExpectLastSubjectSeq = expectingRevision }
    // Registered first: the acknowledgement may come before the call returns.
    acks.add(created, completion)
    let status = js_PublishMsgAsync(jetStream, &message, &options)
    guard status == NATS_OK else {
      _ = acks.take(created)
      // libnats cleared `message` if it kept it; otherwise it is still ours.
      natsMsg_Destroy(message)
      throw NATSError.from(status, operation: "\(operation) \(key)")
    }
  }

  /// Waits until every asynchronous put sent so far has its answer, or
  /// `timeoutMs` passed; false on timeout.
  public func waitForAsyncPuts(timeoutMs: Int64) -> Bool {
    var options = jsPubOptions()
    jsPubOptions_Init(&options)
    options.MaxWait = timeoutMs
    return js_PublishAsyncComplete(jetStream, &options) == NATS_OK
  }
}

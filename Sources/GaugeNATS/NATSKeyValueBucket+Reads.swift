import CNATS

extension NATSKeyValueBucket {
  /// The key's value and revision; nil when it was never written or its
  /// last revision is a delete or purge marker.
  public func get(_ key: String) throws(NATSError) -> KVEntry? {
    try KVKey.check(key, operation: "get")
    var entry: OpaquePointer?
    let status = kvStore_Get(&entry, bucket, key)
    if status == NATS_NOT_FOUND { return nil }
    guard status == NATS_OK, let entry else {
      throw NATSError.from(status, operation: "get \(key)")
    }
    defer { kvEntry_Destroy(entry) }
    return Self.entry(entry, key: key)
  }

  /// The keys that hold a value now, in no particular order.
  public func keys() throws(NATSError) -> [String] {
    var list = kvKeysList()
    let status = kvStore_Keys(&list, bucket, nil)
    if status == NATS_NOT_FOUND { return [] }
    guard status == NATS_OK else { throw NATSError.from(status, operation: "keys") }
    defer { kvKeysList_Destroy(&list) }
    return (0..<Int(list.Count)).compactMap { index in
      list.Keys[index].map { String(cString: $0) }
    }
  }

  /// Every key that holds a value now, with its value and revision: one
  /// consistent pass over the bucket (a watch of the last revision of each
  /// key, stopped once it has caught up).
  public func entries() throws(NATSError) -> [KVEntry] {
    var options = kvWatchOptions()
    kvWatchOptions_Init(&options)
    options.IgnoreDeletes = true
    options.Timeout = requestTimeoutMs
    var watcher: OpaquePointer?
    var status = kvStore_WatchAll(&watcher, bucket, &options)
    guard status == NATS_OK, let watcher else { throw NATSError.from(status, operation: "list") }
    defer { kvWatcher_Destroy(watcher) }
    var entries: [KVEntry] = []
    while true {
      var entry: OpaquePointer?
      status = kvWatcher_Next(&entry, watcher, requestTimeoutMs)
      guard status == NATS_OK else { throw NATSError.from(status, operation: "list") }
      // libnats's marker: everything that existed at the start has come.
      guard let entry else { return entries }
      defer { kvEntry_Destroy(entry) }
      let key = kvEntry_Key(entry).map { String(cString: $0) } ?? ""
      entries.append(Self.entry(entry, key: key))
    }
  }

  /// The bucket's first and last revision now (its stream's first and last
  /// sequence numbers; both 0 while it is empty and was never written).
  public func revisionRange() throws(NATSError) -> (first: UInt64, last: UInt64) {
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var errorCode = jsErrCode(rawValue: 0)
    let status = js_GetStreamInfo(&info, jetStream, streamName, nil, &errorCode)
    guard status == NATS_OK, let info else {
      throw NATSError.from(status, jetStreamCode: errorCode, operation: "read bucket state")
    }
    defer { jsStreamInfo_Destroy(info) }
    return (info.pointee.State.FirstSeq, info.pointee.State.LastSeq)
  }

  static func entry(_ entry: OpaquePointer, key: String) -> KVEntry {
    let count = Int(kvEntry_ValueLen(entry))
    var value: [UInt8] = []
    if count > 0, let bytes = kvEntry_Value(entry) {
      value = Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
    return KVEntry(key: key, value: value, revision: kvEntry_Revision(entry))
  }
}

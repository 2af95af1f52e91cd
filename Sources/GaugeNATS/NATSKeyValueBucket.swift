import CNATS
import Glibc

/// One NATS connection and one JetStream key-value bucket on it: gauged's
/// view of the shared widget store. Writes and reads block the calling
/// thread for one JetStream round trip (at most the options' request
/// timeout); watches and asynchronous puts call back on libnats's threads.
///
/// `@unchecked Sendable`: the connection, JetStream context and bucket
/// handles are made in `init` and freed in `deinit` only, and libnats locks
/// inside each of them, so any thread may use them in between; the rest is
/// immutable or behind a `Mutex`.
public final class NATSKeyValueBucket: @unchecked Sendable {
  /// What opening found: created, existing, or existing with other settings.
  public let opening: KVBucketOpening
  /// The settings the bucket has (the ones asked for unless `opening` says
  /// otherwise).
  public let settings: KVBucketSettings

  let connection: OpaquePointer
  let jetStream: OpaquePointer
  let bucket: OpaquePointer
  let monitor: ConnectionMonitor
  let acks: PublishAcks
  /// `$KV.<bucket>.`, the subject prefix of every key.
  let keyPrefix: String
  /// `KV_<bucket>`, the stream behind the bucket.
  let streamName: String
  let requestTimeoutMs: Int64

  /// Connects to the servers and opens the bucket, creating it with
  /// `settings` when it does not exist.
  public init(options: NATSConnectionOptions, bucket settings: KVBucketSettings) throws(NATSError) {
    let monitor = ConnectionMonitor()
    let connection = try Self.connect(options, monitor: monitor)
    let acks = PublishAcks()
    var jetStream: OpaquePointer?
    var jsOptionsValue = jsOptions()
    jsOptions_Init(&jsOptionsValue)
    jsOptionsValue.Wait = options.requestTimeoutMs
    jsOptionsValue.PublishAsync.AckHandler = publishAcknowledged
    jsOptionsValue.PublishAsync.AckHandlerClosure = Unmanaged.passUnretained(acks).toOpaque()
    // Past this many unanswered puts, `putAsync` waits (up to a request's
    // timeout) for answers: JetStream's back-pressure reaches the producer.
    jsOptionsValue.PublishAsync.MaxPending = 4_096
    jsOptionsValue.PublishAsync.StallWait = options.requestTimeoutMs
    let status = natsConnection_JetStream(&jetStream, connection, &jsOptionsValue)
    guard status == NATS_OK, let jetStream else {
      let error = NATSError.from(status, operation: "open JetStream")
      natsConnection_Destroy(connection)
      throw error
    }
    let opened: (OpaquePointer, KVBucketOpening, KVBucketSettings)
    do throws(NATSError) {
      opened = try Self.openBucket(settings, in: jetStream)
    } catch {
      jsCtx_Destroy(jetStream)
      natsConnection_Destroy(connection)
      throw error
    }
    self.connection = connection
    self.jetStream = jetStream
    self.bucket = opened.0
    self.opening = opened.1
    self.settings = opened.2
    self.monitor = monitor
    self.acks = acks
    self.keyPrefix = "$KV.\(opened.2.name)."
    self.streamName = "KV_\(opened.2.name)"
    self.requestTimeoutMs = options.requestTimeoutMs
  }

  deinit {
    close()
    kvStore_Destroy(bucket)
    jsCtx_Destroy(jetStream)
    natsConnection_Destroy(connection)
  }

  /// Where the connection stands now.
  public var connectionState: NATSConnectionState { monitor.current }

  /// Calls `observer` on every later change of the connection's state, on
  /// libnats's thread, until `stopObservingConnection` with the id returned.
  @discardableResult
  public func observeConnection(
    _ observer: @escaping @Sendable (NATSConnectionState) -> Void
  ) -> UInt64 {
    monitor.observe(observer)
  }

  public func stopObservingConnection(_ id: UInt64) {
    monitor.stopObserving(id)
  }

  /// The connection's later states as a sequence; it ends when the
  /// connection closes.
  public func connectionStates() -> AsyncStream<NATSConnectionState> {
    let (stream, continuation) = AsyncStream.makeStream(of: NATSConnectionState.self)
    let id = monitor.observe { state in
      continuation.yield(state)
      if state == .closed { continuation.finish() }
    }
    continuation.onTermination = { [monitor] _ in monitor.stopObserving(id) }
    // Closed before the observer was added: nothing more will come.
    if monitor.current == .closed { continuation.finish() }
    return stream
  }

  /// Fails what asynchronous puts are still waiting for, then closes the
  /// connection: watches end, and every later call fails as unavailable.
  /// Idempotent; `deinit` calls it.
  public func close() {
    guard !natsConnection_IsClosed(connection) else { return }
    monitor.closing()
    acks.failAll(pendingIn: jetStream, waitingMs: requestTimeoutMs)
    natsConnection_Close(connection)
  }

  /// Throws unless the connection is up now: what is written while it is
  /// not would wait in libnats and be sent after reconnecting.
  func requireConnected(_ operation: String) throws(NATSError) {
    let status = natsConnection_Status(connection)
    guard status != NATS_CONN_STATUS_CONNECTED else { return }
    let state = status == NATS_CONN_STATUS_CLOSED ? "closed" : "not connected (reconnecting)"
    throw NATSError(operation: operation, kind: .unavailable, detail: "the connection is \(state)")
  }

  private static func connect(
    _ options: NATSConnectionOptions, monitor: ConnectionMonitor
  ) throws(NATSError) -> OpaquePointer {
    guard !options.servers.isEmpty else {
      throw NATSError(operation: "connect", kind: .invalid, detail: "no server URL given")
    }
    var natsOptionsHandle: OpaquePointer?
    var status = natsOptions_Create(&natsOptionsHandle)
    guard status == NATS_OK, let natsOptionsHandle else {
      throw NATSError.from(status, operation: "connect")
    }
    defer { natsOptions_Destroy(natsOptionsHandle) }
    let monitorPointer = Unmanaged.passRetained(monitor).toOpaque()
    status = configure(natsOptionsHandle, options, monitor: monitorPointer)
    var connection: OpaquePointer?
    if status == NATS_OK {
      status = natsConnection_Connect(&connection, natsOptionsHandle)
    }
    guard status == NATS_OK, let connection else {
      // No connection was made, so libnats will send no closed event to
      // give the monitor's retain back.
      let error = NATSError.from(status, operation: "connect")
      Unmanaged<ConnectionMonitor>.fromOpaque(monitorPointer).release()
      throw error
    }
    return connection
  }

  private static func configure(
    _ handle: OpaquePointer, _ options: NATSConnectionOptions, monitor: UnsafeMutableRawPointer
  ) -> natsStatus {
    var status = withCStrings(options.servers) { servers in
      natsOptions_SetServers(handle, servers.baseAddress, Int32(servers.count))
    }
    if status == NATS_OK { status = natsOptions_SetNoRandomize(handle, true) }
    if status == NATS_OK { status = natsOptions_SetName(handle, options.name) }
    if status == NATS_OK { status = natsOptions_SetTimeout(handle, options.connectTimeoutMs) }
    // Reconnect for as long as the bucket is open. Writes made while
    // disconnected fail at once (`requireConnected`): libnats would keep
    // them in its reconnect buffer and send them after reconnecting, so a
    // write the caller was told failed would land later. The one-byte buffer
    // takes at most the one message that slips past that check (libnats
    // checks the buffer's length before appending); requests in flight when
    // the connection drops fail too.
    if status == NATS_OK { status = natsOptions_SetMaxReconnect(handle, -1) }
    if status == NATS_OK { status = natsOptions_SetReconnectWait(handle, options.reconnectWaitMs) }
    if status == NATS_OK { status = natsOptions_SetReconnectBufSize(handle, 1) }
    if status == NATS_OK { status = natsOptions_SetFailRequestsOnDisconnect(handle, true) }
    if status == NATS_OK, let file = options.credentialsFile {
      status = natsOptions_SetUserCredentialsFromFiles(handle, file, nil)
    }
    if status == NATS_OK, let file = options.tlsCAFile {
      status = natsOptions_SetSecure(handle, true)
      if status == NATS_OK { status = natsOptions_LoadCATrustedCertificates(handle, file) }
    }
    if status == NATS_OK {
      status = natsOptions_SetDisconnectedCB(handle, connectionDisconnected, monitor)
    }
    if status == NATS_OK {
      status = natsOptions_SetReconnectedCB(handle, connectionReconnected, monitor)
    }
    if status == NATS_OK { status = natsOptions_SetClosedCB(handle, connectionClosed, monitor) }
    return status
  }

  private static func openBucket(
    _ wanted: KVBucketSettings, in jetStream: OpaquePointer
  ) throws(NATSError) -> (OpaquePointer, KVBucketOpening, KVBucketSettings) {
    var bucket: OpaquePointer?
    var status = js_KeyValue(&bucket, jetStream, wanted.name)
    if status == NATS_OK, let bucket {
      let actual = try existingSettings(of: bucket, named: wanted.name)
      return (bucket, actual == wanted ? .existing : .existingWithOtherSettings(actual), actual)
    }
    guard status == NATS_NOT_FOUND else {
      throw NATSError.from(status, operation: "open bucket \(wanted.name)")
    }
    var config = kvConfig()
    kvConfig_Init(&config)
    config.StorageType = js_FileStorage
    config.Replicas = Int32(wanted.replicas)
    config.History = UInt8(clamping: wanted.history)
    status = wanted.name.withCString { name in
      config.Bucket = name
      return js_CreateKeyValue(&bucket, jetStream, &config)
    }
    if status == NATS_OK, let bucket {
      return (bucket, .created, wanted)
    }
    // Another instance may have made it between our look and our create.
    let createError = NATSError.from(status, operation: "create bucket \(wanted.name)")
    status = js_KeyValue(&bucket, jetStream, wanted.name)
    guard status == NATS_OK, let bucket else { throw createError }
    let actual = try existingSettings(of: bucket, named: wanted.name)
    return (bucket, actual == wanted ? .existing : .existingWithOtherSettings(actual), actual)
  }

  private static func existingSettings(
    of bucket: OpaquePointer, named name: String
  ) throws(NATSError) -> KVBucketSettings {
    var status: OpaquePointer?
    let result = kvStore_Status(&status, bucket)
    guard result == NATS_OK, let status else {
      kvStore_Destroy(bucket)
      throw NATSError.from(result, operation: "read settings of bucket \(name)")
    }
    defer { kvStatus_Destroy(status) }
    return KVBucketSettings(
      name: name, replicas: Int(kvStatus_Replicas(status)), history: Int(kvStatus_History(status)))
  }
}

/// Runs `body` with the strings as an array of C strings that live for the
/// call.
func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafeMutableBufferPointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
  let copies = strings.map { strdup($0) }
  defer { for copy in copies { free(copy) } }
  var pointers = copies.map { UnsafePointer<CChar>($0) }
  return pointers.withUnsafeMutableBufferPointer { body($0) }
}

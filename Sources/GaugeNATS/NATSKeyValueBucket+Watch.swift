import CNATS

extension NATSKeyValueBucket {
  /// Watches every key from `start`, calling `handler` in revision order on
  /// libnats's delivery thread for this watch (keep it short; it holds up
  /// the next change). What is known before the consumer exists (a lost
  /// continuity, being caught up already) is handed over on the calling
  /// thread before this returns. `finished` runs once, after the last
  /// event, when the watch is stopped or the connection closes.
  ///
  /// When the bucket cannot prove continuity from the requested revision,
  /// the first event is `.continuityLost`. Revisions removed from the middle
  /// of the history (a key's older revisions past `history`, a purged key)
  /// are not reported: what follows them still brings the reader to the
  /// bucket's state.
  public func watch(
    from start: KVWatchStart, handler: @escaping @Sendable (KVWatchEvent) -> Void,
    finished: @escaping @Sendable () -> Void = {}
  ) throws(NATSError) -> KVWatch {
    var consumer = jsConsumerConfig()
    jsConsumerConfig_Init(&consumer)
    var caughtUp = false
    switch start {
    case .updatesOnly:
      consumer.DeliverPolicy = js_DeliverNew
      caughtUp = true
    case .revision(let requested):
      let first = max(requested, 1)
      let range = try revisionRange()
      if first > range.last + 1 {
        handler(.continuityLost(.revisionAhead(requested: first, lastRevision: range.last)))
      } else if first < range.first {
        handler(.continuityLost(.historyPurged(requested: first, firstAvailable: range.first)))
      }
      consumer.DeliverPolicy = js_DeliverByStartSequence
      // From a revision ahead of the bucket, the next one the bucket writes.
      consumer.OptStartSeq = min(first, range.last + 1)
      caughtUp = first > range.last
    }
    // Sent before the subscription exists, so it comes before any change.
    if caughtUp { handler(.caughtUp) }
    let receiver = WatchReceiver(
      keyPrefix: keyPrefix, caughtUp: caughtUp, handler: handler, finished: finished)
    let closure = Unmanaged.passRetained(receiver).toOpaque()
    var subscribeOptions = jsSubOptions()
    jsSubOptions_Init(&subscribeOptions)
    subscribeOptions.Ordered = true
    subscribeOptions.Config = consumer
    var subscription: OpaquePointer?
    var errorCode = jsErrCode(rawValue: 0)
    let status = streamName.withCString { stream in
      subscribeOptions.Stream = stream
      return js_Subscribe(
        &subscription, jetStream, keyPrefix + ">", watchMessageArrived, closure, nil,
        &subscribeOptions, &errorCode)
    }
    guard status == NATS_OK, let subscription else {
      Unmanaged<WatchReceiver>.fromOpaque(closure).release()
      throw NATSError.from(status, jetStreamCode: errorCode, operation: "watch")
    }
    let completion = natsSubscription_SetOnCompleteCB(subscription, watchCompleted, closure)
    guard completion == NATS_OK else {
      // Without a completion callback there is no moment when the receiver
      // is known to be unused, so it stays allocated.
      natsSubscription_Unsubscribe(subscription)
      natsSubscription_Destroy(subscription)
      throw NATSError.from(completion, operation: "watch")
    }
    return KVWatch(subscription: subscription)
  }

  /// `watch(from:handler:)` as an asynchronous sequence. It ends when the
  /// connection closes; ending the iteration stops the watch. Events wait
  /// in the stream while the reader is busy.
  public func watchEvents(from start: KVWatchStart) throws(NATSError) -> AsyncStream<KVWatchEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: KVWatchEvent.self)
    let watch = try watch(
      from: start, handler: { continuation.yield($0) }, finished: { continuation.finish() })
    continuation.onTermination = { _ in watch.stop() }
    return stream
  }
}

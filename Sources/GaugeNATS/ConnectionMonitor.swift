import Synchronization

/// Follows the connection's state as libnats reports it and tells whoever
/// listens. libnats calls it from its own thread for connection events.
final class ConnectionMonitor: Sendable {
  typealias Observer = @Sendable (NATSConnectionState) -> Void

  /// Where the connection is in its life. While closing, libnats still
  /// reports the disconnection that closing causes; it is not news.
  private enum Phase {
    case open(NATSConnectionState)
    case closing(last: NATSConnectionState)
    case closed
  }

  private struct State {
    var phase = Phase.open(.connected)
    var observers: [UInt64: Observer] = [:]
    var nextObserverID: UInt64 = 0
  }

  private let state = Mutex(State())

  var current: NATSConnectionState {
    state.withLock {
      switch $0.phase {
      case .open(let state), .closing(last: let state): state
      case .closed: .closed
      }
    }
  }

  /// Adds an observer; it hears every later change, on libnats's thread.
  func observe(_ observer: @escaping Observer) -> UInt64 {
    state.withLock {
      $0.nextObserverID += 1
      $0.observers[$0.nextObserverID] = observer
      return $0.nextObserverID
    }
  }

  func stopObserving(_ id: UInt64) {
    _ = state.withLock { $0.observers.removeValue(forKey: id) }
  }

  /// The bucket is closing the connection: only `.closed` is news now.
  func closing() {
    state.withLock {
      if case .open(let last) = $0.phase { $0.phase = .closing(last: last) }
    }
  }

  /// Records a change and tells the observers, outside the lock: an
  /// observer may call back into the bucket.
  func changed(to newState: NATSConnectionState) {
    let observers = state.withLock { state -> [Observer] in
      switch (state.phase, newState) {
      case (.closed, _), (.closing, .connected), (.closing, .disconnected),
        (.closing, .reconnected):
        return []
      case (_, .closed):
        state.phase = .closed
      case (.open, _):
        state.phase = .open(newState)
      }
      return Array(state.observers.values)
    }
    for observer in observers { observer(newState) }
  }
}

/// libnats's disconnected callback. `closure` is the monitor, retained for
/// the connection's life (released in `connectionClosed`).
func connectionDisconnected(_ connection: OpaquePointer?, _ closure: UnsafeMutableRawPointer?) {
  guard let closure else { return }
  Unmanaged<ConnectionMonitor>.fromOpaque(closure).takeUnretainedValue().changed(to: .disconnected)
}

func connectionReconnected(_ connection: OpaquePointer?, _ closure: UnsafeMutableRawPointer?) {
  guard let closure else { return }
  Unmanaged<ConnectionMonitor>.fromOpaque(closure).takeUnretainedValue().changed(to: .reconnected)
}

/// The last event libnats sends for a connection: the monitor's retain
/// taken when the connection was made is given back here.
func connectionClosed(_ connection: OpaquePointer?, _ closure: UnsafeMutableRawPointer?) {
  guard let closure else { return }
  let monitor = Unmanaged<ConnectionMonitor>.fromOpaque(closure).takeRetainedValue()
  monitor.changed(to: .closed)
}

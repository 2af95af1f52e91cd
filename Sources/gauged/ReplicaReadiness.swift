import Synchronization

/// Whether the shared store's replica has loaded, for health: the store
/// may report it (on libnats's thread, or before its `init` returns)
/// before or after health exists, and whichever comes second acts.
final class ReplicaReadiness: Sendable {
  private struct State {
    var loaded = false
    var onLoaded: (@Sendable () -> Void)?
  }

  private let state = Mutex(State())

  func markLoaded() {
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      state.loaded = true
      defer { state.onLoaded = nil }
      return state.onLoaded
    }
    action?()
  }

  var isLoaded: Bool { state.withLock { $0.loaded } }

  /// Runs `action` once loaded: now, or when `markLoaded` is called.
  func whenLoaded(_ action: @escaping @Sendable () -> Void) {
    let now = state.withLock { state -> Bool in
      if !state.loaded { state.onLoaded = action }
      return state.loaded
    }
    if now { action() }
  }
}

import GaugeDomain

extension NATSWidgetStore {
  /// Checks each value against its widget's bounds now and hands the
  /// accepted ones to `ValuePuts`, which stores the latest per widget with
  /// one asynchronous put per flush interval. Readers here and elsewhere
  /// see a value once the watch brings its put back; `whenDurable` says
  /// when that has happened.
  public func setValues(_ updates: [ValueSet]) -> [ValueSetRejection] {
    let refusal: WidgetError?
    if !replica.isLoaded {
      refusal = .unavailable("gauged is still loading the widgets from NATS")
    } else if !isConnected {
      refusal = .unavailable("not applied: the connection to NATS is down")
    } else {
      refusal = nil
    }
    if let refusal {
      return updates.indices.map { ValueSetRejection(offset: $0, error: refusal) }
    }
    return valuePuts.accept(updates, now: clock())
  }
}

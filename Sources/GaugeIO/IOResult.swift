/// The outcome of a non-blocking call: it either did something, or would have had to wait.
public enum IOResult<T> {
  case processed(T)
  /// The call returned `EAGAIN`/`EWOULDBLOCK`; retry once the descriptor is ready.
  case wouldBlock
}

extension IOResult: Sendable where T: Sendable {}
extension IOResult: Equatable where T: Equatable {}

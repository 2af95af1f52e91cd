/// How to reach NATS: the servers, credentials, TLS and the patience of each
/// request.
public struct NATSConnectionOptions: Sendable, Equatable {
  /// Server URLs, tried in this order (libnats otherwise shuffles them).
  public var servers: [String]
  /// A `.creds` file (user JWT and NKey seed), or nil.
  public var credentialsFile: String?
  /// A PEM file of CA certificates to trust; setting it requires TLS.
  public var tlsCAFile: String?
  /// The connection's name as the servers' monitoring shows it.
  public var name: String
  /// How long one connection attempt may take, in milliseconds.
  public var connectTimeoutMs: Int64
  /// How long a JetStream request (a write, a read, opening the bucket) may
  /// wait for its answer, in milliseconds.
  public var requestTimeoutMs: Int64
  /// The pause between rounds of reconnection attempts, in milliseconds.
  /// The connection keeps trying for as long as it is open.
  public var reconnectWaitMs: Int64

  public init(
    servers: [String], credentialsFile: String? = nil, tlsCAFile: String? = nil,
    name: String = "gauged", connectTimeoutMs: Int64 = 2_000, requestTimeoutMs: Int64 = 5_000,
    reconnectWaitMs: Int64 = 250
  ) {
    self.servers = servers
    self.credentialsFile = credentialsFile
    self.tlsCAFile = tlsCAFile
    self.name = name
    self.connectTimeoutMs = connectTimeoutMs
    self.requestTimeoutMs = requestTimeoutMs
    self.reconnectWaitMs = reconnectWaitMs
  }

  /// `servers` as gauged's `--nats` flag takes them: `nats://a:4222,nats://b:4222`.
  public init(serverList: String) {
    self.init(
      servers: serverList.split(separator: ",").map {
        String($0.trimmingWhitespace)
      }.filter { !$0.isEmpty })
  }
}

extension Substring {
  fileprivate var trimmingWhitespace: Substring {
    var text = self
    while text.first?.isWhitespace == true { text.removeFirst() }
    while text.last?.isWhitespace == true { text.removeLast() }
    return text
  }
}

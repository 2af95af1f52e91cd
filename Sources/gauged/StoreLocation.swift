import GaugeNATS

/// Where `gauged export` reads widgets and `gauged import` writes them: a
/// data directory (no gauged may be running on it) or a NATS bucket.
enum StoreLocation {
  case dataDirectory(String)
  case nats(NATSOptions)

  enum Parsed {
    case location(StoreLocation)
    /// What is wrong with the arguments, for standard error.
    case invalid(String)
  }

  static let usage = """
    --data-dir DIR | --nats URL[,URL...] [--nats-bucket NAME] [--nats-replicas N]
                     [--nats-creds FILE] [--nats-tls-ca FILE]
    """

  /// `--data-dir DIR`, or `--nats` with its companions as gauged takes them.
  static func parse(_ arguments: [String], command: String) -> Parsed {
    var rest = arguments[...]
    var dataDirectory: String?
    var servers: String?
    var bucket = KVBucketSettings(name: "gauged", replicas: 1)
    var credentials: String?
    var tlsCA: String?
    while let flag = rest.popFirst() {
      guard let value = rest.popFirst(), !value.isEmpty else {
        return .invalid("gauged \(command): \(flag) needs a value")
      }
      switch flag {
      case "--data-dir": dataDirectory = value
      case "--nats": servers = value
      case "--nats-bucket":
        guard NATSOptions.isValidBucketName(value) else {
          return .invalid("gauged \(command): --nats-bucket: \"\(value)\" is not a bucket name")
        }
        bucket.name = value
      case "--nats-replicas":
        guard let replicas = Int(value), [1, 3, 5].contains(replicas) else {
          return .invalid("gauged \(command): --nats-replicas: \"\(value)\" is not 1, 3 or 5")
        }
        bucket.replicas = replicas
      case "--nats-creds": credentials = value
      case "--nats-tls-ca": tlsCA = value
      default:
        return .invalid("gauged \(command): unknown option \(flag)")
      }
    }
    switch (dataDirectory, servers) {
    case (let directory?, nil):
      return .location(.dataDirectory(directory))
    case (nil, let servers?):
      var connection = NATSConnectionOptions(serverList: servers)
      connection.credentialsFile = credentials
      connection.tlsCAFile = tlsCA
      return .location(.nats(NATSOptions(connection: connection, bucket: bucket)))
    case (_?, _?):
      return .invalid("gauged \(command): --data-dir and --nats are exclusive")
    case (nil, nil):
      return .invalid("gauged \(command): --data-dir or --nats is required")
    }
  }

  /// What to call it in messages.
  var description: String {
    switch self {
    case .dataDirectory(let path): "data directory \(path)"
    case .nats(let options):
      "NATS bucket \(options.bucket.name) on \(options.connection.servers.joined(separator: ","))"
    }
  }
}

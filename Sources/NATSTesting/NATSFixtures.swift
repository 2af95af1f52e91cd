import Foundation
import GaugeNATS

/// One nats-server in a temporary directory, killed and removed after
/// `body` whatever it does.
public func withNATSServer<Result>(
  _ body: (NATSServerProcess) async throws -> Result
) async throws -> Result {
  try await withTemporaryDirectory { directory in
    let server = try NATSServerProcess(name: "n1", directory: directory)
    defer { server.kill() }
    try server.start()
    return try await body(server)
  }
}

/// Three nats-server nodes routed to each other as one JetStream cluster.
public func withNATSCluster<Result>(
  _ body: ([NATSServerProcess]) async throws -> Result
) async throws -> Result {
  try await withTemporaryDirectory { directory in
    let clusterPorts = try (0..<3).map { _ in try freeLoopbackPort() }
    let routes = clusterPorts.map { "nats://127.0.0.1:\($0)" }.joined(separator: ",")
    let nodes = try (0..<3).map { index in
      try NATSServerProcess(
        name: "n\(index + 1)", directory: directory,
        arguments: [
          "--cluster_name", "gauged-test", "--cluster", "nats://127.0.0.1:\(clusterPorts[index])",
          "--routes", routes,
        ])
    }
    defer { for node in nodes { node.kill() } }
    for node in nodes { try node.start() }
    return try await body(nodes)
  }
}

/// Opens the bucket, retrying while JetStream is still getting ready (a
/// new cluster elects its leaders first) for up to 30 seconds.
public func openBucket(
  _ servers: [String], _ settings: KVBucketSettings, requestTimeoutMs: Int64 = 2_000
) async throws -> NATSKeyValueBucket {
  let options = NATSConnectionOptions(servers: servers, requestTimeoutMs: requestTimeoutMs)
  return try await eventually("open bucket \(settings.name)") {
    try NATSKeyValueBucket(options: options, bucket: settings)
  }
}

/// Calls `attempt` until it returns without throwing, for up to `seconds`
/// (a hang guard, not a timing assertion); then fails with the last error.
public func eventually<Result>(
  _ what: String, seconds: Double = 30, _ attempt: () throws -> Result
) async throws -> Result {
  let deadline = ContinuousClock.now + .seconds(seconds)
  var lastError: (any Error)?
  while ContinuousClock.now < deadline {
    do {
      return try attempt()
    } catch {
      lastError = error
      try await Task.sleep(for: .milliseconds(100))
    }
  }
  throw TestFailure("\(what) did not succeed in \(seconds) s: \(String(describing: lastError))")
}

/// Waits until `condition` holds, for up to 30 seconds.
public func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(30)
  while !condition() {
    guard ContinuousClock.now < deadline else { throw TestFailure("no \(what) within 30 s") }
    try await Task.sleep(for: .milliseconds(10))
  }
}

/// The bytes of `text`.
public func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

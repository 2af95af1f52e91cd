import GRPCClient
import GRPCCore
import GaugeIO

/// The flags every command takes.
public struct GlobalOptions: Sendable {
  public var server: SocketAddress
  /// The text the user gave, for messages.
  public var serverText: String
  /// For each unary call, and for connecting. Streams (publish, watch) use
  /// it only when given explicitly.
  public var timeout: Duration
  public var timeoutGiven: Bool
  public var token: String?
  public var json: Bool
  /// Requests go gzipped and gzipped responses are accepted.
  public var gzip: Bool
  /// `--tls` or `--cacert`: nil is cleartext.
  public var tls: ClientTLS?

  public static let defaultServer = "127.0.0.1:50051"
  public static let defaultTimeout = Duration.seconds(10)

  public static let flags: [FlagSpec] = [
    FlagSpec("server"), FlagSpec("timeout"), FlagSpec("token"), .toggle("json"),
    .toggle("gzip"), .toggle("tls"), FlagSpec("cacert"), .toggle("help", short: "h"),
  ]

  /// `--server` wins over `GAUGED_SERVER`, which wins over the default.
  public init(_ arguments: Arguments, environment: [String: String]) throws(CLIError) {
    let text =
      arguments.value("server") ?? environment["GAUGED_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
      ?? Self.defaultServer
    do {
      server = try SocketAddress(parsing: text)
    } catch {
      let source = arguments.value("server") != nil ? "--server" : "GAUGED_SERVER"
      throw .usage("\(source): \"\(text)\" is not HOST:PORT or unix:PATH (\(error.reason))")
    }
    serverText = text
    if let text = arguments.value("timeout") {
      guard let parsed = DurationText.parse(text) else {
        throw .usage("--timeout: \"\(text)\" is not a duration like 500ms, 5s or 2m")
      }
      timeout = parsed
      timeoutGiven = true
    } else {
      timeout = Self.defaultTimeout
      timeoutGiven = false
    }
    // --token wins over GAUGED_TOKEN, which keeps the secret off the
    // command line (and out of `ps`).
    token =
      arguments.value("token") ?? environment["GAUGED_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    // It goes into a header: HTTP/2 refuses controls and edge spaces there,
    // and the server's answer would be a bare stream reset.
    if let token, token.isEmpty || !token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
      throw .usage(
        "--token: a bearer token is printable ASCII without spaces, at least one character")
    }
    json = arguments.has("json")
    gzip = arguments.has("gzip")
    let caFile = arguments.value("cacert")
    if arguments.has("tls") || caFile != nil {
      guard server.unixPath == nil else {
        throw .usage("--tls: gauged serves its Unix sockets in cleartext")
      }
      do {
        tls = try ClientTLS(target: text, caFile: caFile)
      } catch {
        throw .usage("\(caFile == nil ? "--tls" : "--cacert"): \(error)")
      }
    }
  }

  /// How every connection of this command is made.
  public var clientConfiguration: ClientConfiguration {
    var configuration = ClientConfiguration()
    if gzip { configuration.compression = .gzip }
    configuration.tls = tls
    return configuration
  }

  /// Request metadata: the bearer token, when there is one.
  public var metadata: Metadata {
    var metadata = Metadata()
    if let token { metadata.add("authorization", "Bearer \(token)") }
    return metadata
  }
}

import GRPCTransport
import GaugeDomain
import GaugeIO
import GaugeLog
import GaugeNATS
import GaugeService
import GaugeStore

/// gauged's command line.
struct Options {
  /// Every `--listen`, in order; none means `defaultListen`.
  var listen: [SocketAddress] = []
  /// The `--listen`s followed by `--plaintext`: cleartext even with TLS on.
  var plaintextListen: Set<Int> = []
  /// `--tls-cert`, `--tls-key`, `--tls-client-ca`.
  var tlsCertificate: String?
  var tlsKey: String?
  var tlsClientCA: String?
  var threads = 0
  var memoryOnly = false
  var dataDirectory = "./gauged-data"
  var durability = Durability.relaxed
  var flushIntervalMs = 10
  var tombstoneRetentionMs: Int64 = 24 * 3_600_000
  var shutdownGrace: Duration = .seconds(10)
  /// Limits, timers and compression of the transport, set by the flags below.
  var server = ServerConfiguration()
  /// Which pages on other origins may call the HTTP faces; nil (no
  /// `--cors-origin`) adds no CORS fields to any answer.
  var cors: CORSPolicy?
  /// Whether the loops count calls and requests and `/metrics` answers.
  var metrics = true
  /// `--self-widgets`: whether gauged keeps its own gauges under `gauged-`.
  var selfWidgets = true
  /// `--metrics-listen`: where metrics alone are served, besides `/metrics`
  /// on every listener.
  var metricsListen: SocketAddress?
  /// nil: text on a terminal, JSON otherwise.
  var logFormat: LogFormat?
  var logLevel = LogLevel.info
  /// `--access-log`: one line per call or request, for this share of them.
  var accessLogSample: Double?
  /// `--tokens-file`: the tokens of a `--memory` server.
  var tokensFile: String?
  /// `--allow-unauthenticated`: serve without tokens on addresses other
  /// machines can reach.
  var allowUnauthenticated = false
  /// Requests per second per token: writes (with their burst) and reads.
  var rateLimits = RateLimiter.Limits.standard
  /// `--nats` and its companions: the widgets live in a NATS JetStream
  /// bucket shared with other instances; nil keeps them in SQLite or memory.
  var nats: NATSOptions?

  static let defaultListen = "127.0.0.1:50051"

  /// Where to serve: every `--listen`, or the default.
  var listenAddresses: [SocketAddress] {
    // The default is a literal this file keeps valid.
    listen.isEmpty ? [try! SocketAddress(parsing: Self.defaultListen)] : listen
  }

  /// Whether the listener at `index` of `listenAddresses` speaks TLS:
  /// every TCP one when a certificate is given, except those marked
  /// `--plaintext`. Unix sockets stay cleartext: only local processes
  /// reach them, and their file's permissions say which.
  func listenerUsesTLS(_ index: Int) -> Bool {
    tlsCertificate != nil && !plaintextListen.contains(index)
      && listenAddresses[index].unixPath == nil
  }

  static let usage = """
    gauged: keeps live widgets and serves gauge.v1.WidgetService over gRPC (h2c, or
    HTTP/2 over TLS with --tls-cert).

    Usage: gauged [options]

    Options:
      --listen ADDRESS           Address to serve on: HOST:PORT, or unix:PATH for
                                 a Unix domain socket (default 127.0.0.1:50051).
                                 Repeat it to serve on several (say TCP for remote
                                 dashboards and a socket for local producers).
                                 Port 0 picks a free port; the bound addresses are
                                 printed on standard output once serving. The
                                 socket file is removed at exit, and one left by
                                 a gauged that was killed is replaced.
      --plaintext                After a --listen: that address stays cleartext
                                 even with --tls-cert (say for a local sidecar).
      --tls-cert FILE            Serve TLS (1.2 and 1.3, ALPN h2 and http/1.1) on
                                 every TCP listener with this PEM certificate
                                 chain (the server's first); cleartext clients get
                                 a 400 and the close. Unix sockets stay cleartext.
                                 SIGHUP reads the certificate and key again: new
                                 connections get the new pair, open ones keep
                                 theirs, and a file that fails keeps the old pair.
      --tls-key FILE             The PEM private key of --tls-cert.
      --tls-client-ca FILE       Require client certificates signed by a CA in
                                 this PEM file (mutual TLS).
      --threads N                Event loops, one thread each (default, or 0: one
                                 per core).
      --compress-responses       Gzip response messages for clients whose
                                 grpc-accept-encoding lists gzip (default: off).
                                 Gzip requests are accepted either way.
      --data-dir DIR             Keep widgets in DIR/gauged.sqlite3 (SQLite, WAL mode),
                                 creating DIR when missing (default ./gauged-data).
                                 One gauged per DIR: a second exits at start.
      --memory                   Keep widgets in memory only; nothing survives a
                                 restart, and revisions start at the Unix time in
                                 microseconds so old resume points get a reset.
      --durability MODE          When a write is acknowledged (default relaxed):
                                   strict   after the transaction holding it has
                                            committed with synchronous=FULL;
                                   relaxed  once applied in memory; it reaches the
                                            file within the flush interval, so a
                                            crash loses at most that window.
                                 SIGTERM/SIGINT flush everything in both modes.
                                 With --nats, every write waits for JetStream;
                                 this says when PublishValues values are: strict
                                 once JetStream stored them, relaxed at once.
      --flush-interval-ms N      Relaxed mode: how long changes gather before one
                                 commit writes them (default 10, at most 60000).
      --tombstone-retention D    How long removals are remembered for resuming
                                 subscribers, as 24h, 30m, 90s, 500ms or 7d
                                 (default 24h).
      --cors-origin ORIGIN       Let pages on ORIGIN call gauged from a browser
                                 (every HTTP face), with credentials. ORIGIN is
                                 exact, as browsers send it: scheme://host[:port]
                                 in lower case. Repeat it for several. * lets any
                                 page in, without credentials, and stands alone.
                                 Default: none, and no CORS fields on any answer.
      --metrics on|off           Count calls, requests and connections and serve
                                 them at GET /metrics on every listener, in
                                 Prometheus' text format, or OpenMetrics when the
                                 scraper asks for it (default on).
      --metrics-listen ADDRESS   Also serve /metrics, and nothing else, on ADDRESS
                                 (HOST:PORT or unix:PATH), on a thread of its own.
      --self-widgets on|off      Keep gauged's own gauges as widgets under the
                                 gauged- prefix, updated every second: connections,
                                 subscriptions, writes and events per second, unary
                                 p99 latency, store queue depth. Clients cannot
                                 write that prefix while they are on (default on).
      --log-format text|json     Log lines on standard error as text or JSON objects,
                                 one per event (default: text on a terminal, json
                                 otherwise).
      --log-level LEVEL          error, warn, info or debug (default info).
      --access-log               Also log one line per gRPC call or HTTP request:
                                 face, method or route, status, duration, and the
                                 answer's bytes for HTTP. Never headers or bodies.
      --access-log-sample FRACTION
                                 Log only this share of them, above 0 and at most 1
                                 (default 1), for high rates.
      --nats URL[,URL...]        Keep widgets in a NATS JetStream key-value bucket
                                 shared by every gauged given the same bucket: each
                                 serves the same widgets, with the same revisions.
                                 The servers are tried in order. Not with --data-dir
                                 or --memory; tokens come from --tokens-file, and
                                 --self-widgets is off.
      --nats-bucket NAME         The bucket (default gauged), created when missing;
                                 one that exists is used with its own settings.
      --nats-replicas N          Servers holding each widget when the bucket is
                                 created: 1, 3 or 5 (default 1).
      --nats-creds FILE          A NATS .creds file (user JWT and NKey seed).
      --nats-tls-ca FILE         Connect to NATS over TLS, trusting this PEM CA.
      --tokens-file FILE         With --memory or --nats: the bearer tokens
                                 accepted, one per line as NAME SCOPE[:PREFIX]
                                 SHA256-HEX (SCOPE read, write or admin; PREFIX
                                 limits the token to widget ids starting with it).
                                 With --data-dir, tokens live in the data
                                 directory (gauged token create).
      --rate-limit-writes N/s    Writes per second each token may make: calls, REST
                                 writes, PublishValues values (default 1000/s, or
                                 off). Over it: RESOURCE_EXHAUSTED with RetryInfo,
                                 HTTP 429 with Retry-After.
      --rate-burst N             Writes a token may make at once (default twice the
                                 rate).
      --rate-limit-reads N/s     Reads and subscriptions per second each token may
                                 start (default 10000/s, or off).
      --max-subscriptions N      Subscriptions and event streams each token may
                                 hold open at once (default 100).
      --allow-unauthenticated    Serve without tokens on addresses other machines
                                 can reach; each client address then gets the
                                 rate limits a token would. Without tokens, gauged
                                 otherwise serves only on loopback addresses and
                                 Unix sockets.
      --version                  Print the version and exit.
      -h, --help                 Print this help and exit.

    Tokens: gauged token create NAME --scope read|write|admin [--prefix P]
    [--expires DURATION] --data-dir DIR makes a token offline (no gauged may be
    running on DIR) and prints its secret once. Clients send it as
    authorization: Bearer gd_...; browsers may trade it for a cookie at
    POST /login. Health and the pages are open; reading needs read, writing
    write.

    Moving widgets: gauged export --data-dir DIR > widgets.jsonl writes every
    widget, one JSON object per line; gauged import --nats URL < widgets.jsonl
    (or --data-dir DIR) loads them, keeping ids, content and timestamps. Both
    also take --nats with its companions, or --data-dir, on either side.

    Limits:
      --max-message-bytes N      Largest request message accepted (default 4194304),
                                 before and after decompression.
      --max-concurrent-streams N Streams one connection may have open (default 1000),
                                 announced in SETTINGS. Until the client acknowledges
                                 them, more are refused with REFUSED_STREAM; a client
                                 that goes over them afterwards loses the connection
                                 (GOAWAY PROTOCOL_ERROR).
      --max-connection-buffer-bytes N
                                 Bytes one connection may hold: responses its peer
                                 has not read plus partly received requests
                                 (default 67108864, or twice --max-message-bytes if
                                 more); over it the connection is closed.

    Connection life (DURATION: 250ms, 20s, 5m, 2h; 0 turns a timer off):
      --idle-timeout DURATION    Close connections without streams after this
                                 (default 5m).
      --write-stall-timeout DURATION
                                 Close connections whose peer takes none of what it
                                 is owed for this long (default 60s).
      --keepalive-interval DURATION
                                 Ping peers quiet for this long (default 0: never).
      --keepalive-timeout DURATION
                                 Close peers that leave a ping unanswered this long
                                 (default 20s).
      --min-ping-interval DURATION
                                 Pings from a peer closer together than this, while
                                 the server sends nothing, are strikes; the third
                                 ends the connection with GOAWAY "too_many_pings"
                                 (default 5m; without calls, 2h).
      --shutdown-grace DURATION  On SIGTERM or SIGINT, how long calls in flight may
                                 take to finish (default 10s).

    Signals: SIGTERM or SIGINT stops the server gracefully: health turns
    NOT_SERVING, new connections and streams are refused, calls in flight get the
    grace period, calls still running then end with UNAVAILABLE; the store is
    flushed and gauged exits 0 (1 when the last changes could not be written).

    If the disk fills up or fails, writes fail with UNAVAILABLE (reads keep
    working) until a retried commit succeeds.
    """

  enum ParseOutcome {
    case run(Options)
    case exit(code: Int32, message: String)
  }

  static func parse(_ arguments: [String]) -> ParseOutcome {
    var options = Options()
    var rest = arguments[...]
    var diskFlags: [String] = []
    var bufferGiven = false
    var corsOrigins: [String] = []
    var sampleGiven: Double?
    var previousFlag = ""
    var rateWrites: Double? = RateLimiter.Limits.standard.writes?.perSecond
    var rateReads: Double? = RateLimiter.Limits.standard.reads?.perSecond
    var rateBurst: Double? = nil
    var maxSubscriptions = RateLimiter.Limits.standard.subscriptions
    var natsServers: String?
    var natsBucket = "gauged"
    var natsReplicas = 1
    var natsCredentials: String?
    var natsTLSCA: String?
    var natsFlags: [String] = []
    var selfWidgetsGiven = false
    while let argument = rest.popFirst() {
      var flag = argument
      defer { previousFlag = flag }
      var inline: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        flag = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      switch flag {
      case "-h", "--help":
        return .exit(code: 0, message: usage)
      case "--version":
        return .exit(code: 0, message: "gauged \(version)")
      case "--memory":
        options.memoryOnly = true
        continue
      case "--compress-responses":
        options.server.compressResponses = true
        continue
      case "--access-log":
        options.accessLogSample = options.accessLogSample ?? 1
        continue
      case "--plaintext":
        guard previousFlag == "--listen" else {
          return .exit(code: 2, message: "gauged: --plaintext must follow the --listen it marks")
        }
        options.plaintextListen.insert(options.listen.count - 1)
        continue
      case "--allow-unauthenticated":
        options.allowUnauthenticated = true
        continue
      default:
        break
      }
      guard let text = inline ?? rest.popFirst() else {
        if Self.valueFlags.contains(flag) {
          return .exit(code: 2, message: "gauged: \(flag) needs a value")
        }
        return .exit(code: 2, message: "gauged: unknown option \(argument)\n\n\(usage)")
      }
      func invalid(_ expected: String) -> ParseOutcome {
        .exit(code: 2, message: "gauged: \(flag): \"\(text)\" is not \(expected)")
      }
      let number = Int(text)
      let duration = DurationText.parse(text)
      switch flag {
      case "--listen":
        do {
          options.listen.append(try SocketAddress(parsing: text))
        } catch {
          return invalid("HOST:PORT or unix:PATH (\(error.reason))")
        }
      case "--tls-cert":
        options.tlsCertificate = text
      case "--tls-key":
        options.tlsKey = text
      case "--tls-client-ca":
        options.tlsClientCA = text
      case "--threads":
        guard let number, (0...256).contains(number) else { return invalid("0...256") }
        options.threads = number
      case "--data-dir":
        guard !text.isEmpty else { return .exit(code: 2, message: "gauged: \(flag) needs a value") }
        options.dataDirectory = text
        diskFlags.append(flag)
      case "--durability":
        guard let durability = Durability(rawValue: text) else {
          return invalid("strict or relaxed")
        }
        options.durability = durability
        diskFlags.append(flag)
      case "--flush-interval-ms":
        guard let number, (0...60_000).contains(number) else { return invalid("0...60000") }
        options.flushIntervalMs = number
        diskFlags.append(flag)
      case "--tombstone-retention":
        // A bare 0 as the timer flags take it; 0s was accepted already.
        guard let milliseconds = text == "0" ? 0 : DurationText.milliseconds(text) else {
          return invalid("a duration like 24h, 30m, 90s, 500ms or 7d (at most 3650d)")
        }
        options.tombstoneRetentionMs = milliseconds
      case "--max-message-bytes":
        guard let number, (1...Int(Int32.max)).contains(number) else {
          return invalid("a positive size")
        }
        options.server.maxReceiveMessageBytes = number
      case "--max-concurrent-streams":
        guard let number, (1...Int(Int32.max)).contains(number) else {
          return invalid("a positive number")
        }
        options.server.maxConcurrentStreams = UInt32(number)
      case "--max-connection-buffer-bytes":
        guard let number, (1...Int(Int32.max)).contains(number) else {
          return invalid("a positive size")
        }
        options.server.maxConnectionBufferBytes = number
        bufferGiven = true
      case "--idle-timeout":
        guard let duration else { return invalid(DurationText.expected) }
        options.server.idleTimeout = duration == .zero ? nil : duration
      case "--write-stall-timeout":
        guard let duration else { return invalid(DurationText.expected) }
        options.server.writeStallTimeout = duration == .zero ? nil : duration
      case "--keepalive-interval":
        guard let duration else { return invalid(DurationText.expected) }
        options.server.keepalive.interval = duration == .zero ? nil : duration
      case "--keepalive-timeout":
        guard let duration, duration > .zero else {
          return invalid("a duration above 0 (like 250ms, 20s, 5m)")
        }
        options.server.keepalive.timeout = duration
      case "--min-ping-interval":
        guard let duration else { return invalid(DurationText.expected) }
        options.server.keepalive.minReceivedPingInterval = duration
      case "--shutdown-grace":
        guard let duration else { return invalid(DurationText.expected) }
        options.shutdownGrace = duration
      case "--cors-origin":
        corsOrigins.append(text)
      case "--log-format":
        guard let format = LogFormat(rawValue: text) else { return invalid("text or json") }
        options.logFormat = format
      case "--log-level":
        guard let level = LogLevel(name: text) else {
          return invalid("error, warn, info or debug")
        }
        options.logLevel = level
      case "--access-log-sample":
        guard let fraction = Double(text), fraction > 0, fraction <= 1 else {
          return invalid("a fraction above 0 and at most 1")
        }
        sampleGiven = fraction
      case "--metrics":
        guard text == "on" || text == "off" else { return invalid("on or off") }
        options.metrics = text == "on"
      case "--self-widgets":
        guard text == "on" || text == "off" else { return invalid("on or off") }
        options.selfWidgets = text == "on"
        selfWidgetsGiven = true
      case "--rate-limit-writes", "--rate-limit-reads":
        let rate: Double?
        if text == "off" {
          rate = nil
        } else {
          let digits = text.hasSuffix("/s") ? String(text.dropLast(2)) : text
          guard let number = Int(digits), (1...100_000_000).contains(number) else {
            return invalid("N/s (1 to 100000000) or off")
          }
          rate = Double(number)
        }
        if flag == "--rate-limit-writes" {
          rateWrites = rate
        } else {
          rateReads = rate
        }
      case "--max-subscriptions":
        guard let number, (1...1_000_000).contains(number) else { return invalid("1...1000000") }
        maxSubscriptions = number
      case "--rate-burst":
        guard let number, (1...1_000_000_000).contains(number) else {
          return invalid("1...1000000000")
        }
        rateBurst = Double(number)
      case "--tokens-file":
        guard !text.isEmpty else { return .exit(code: 2, message: "gauged: \(flag) needs a value") }
        options.tokensFile = text
      case "--nats":
        guard !NATSConnectionOptions(serverList: text).servers.isEmpty else {
          return invalid("a NATS URL, or several separated by commas")
        }
        natsServers = text
      case "--nats-bucket":
        guard NATSOptions.isValidBucketName(text) else {
          return invalid("a bucket name (letters, digits, - and _)")
        }
        natsBucket = text
        natsFlags.append(flag)
      case "--nats-replicas":
        guard let number, [1, 3, 5].contains(number) else { return invalid("1, 3 or 5") }
        natsReplicas = number
        natsFlags.append(flag)
      case "--nats-creds":
        guard !text.isEmpty else { return .exit(code: 2, message: "gauged: \(flag) needs a value") }
        natsCredentials = text
        natsFlags.append(flag)
      case "--nats-tls-ca":
        guard !text.isEmpty else { return .exit(code: 2, message: "gauged: \(flag) needs a value") }
        natsTLSCA = text
        natsFlags.append(flag)
      case "--metrics-listen":
        do {
          options.metricsListen = try SocketAddress(parsing: text)
        } catch {
          return invalid("HOST:PORT or unix:PATH (\(error.reason))")
        }
      default:
        return .exit(code: 2, message: "gauged: unknown option \(argument)\n\n\(usage)")
      }
    }
    if !corsOrigins.isEmpty {
      do {
        options.cors = try CORSPolicy(origins: corsOrigins)
      } catch {
        return .exit(code: 2, message: "gauged: --cors-origin: \(error)")
      }
    }
    if let sampleGiven {
      guard options.accessLogSample != nil else {
        return .exit(code: 2, message: "gauged: --access-log-sample needs --access-log")
      }
      options.accessLogSample = sampleGiven
    }
    if (options.tlsCertificate == nil) != (options.tlsKey == nil) {
      return .exit(code: 2, message: "gauged: --tls-cert and --tls-key go together")
    }
    if options.tlsCertificate == nil {
      if options.tlsClientCA != nil {
        return .exit(code: 2, message: "gauged: --tls-client-ca needs --tls-cert and --tls-key")
      }
      if !options.plaintextListen.isEmpty {
        return .exit(
          code: 2,
          message: "gauged: --plaintext has no effect without --tls-cert (all is cleartext)")
      }
    }
    if !options.metrics, options.metricsListen != nil {
      return .exit(code: 2, message: "gauged: --metrics-listen has no effect with --metrics off")
    }
    // The burst is the writes'; reads get ten times their rate, or twice it.
    let writeBurst = rateBurst ?? rateWrites.map { 2 * $0 } ?? 0
    options.rateLimits = RateLimiter.Limits(
      writes: rateWrites.map { TokenBucket.Rate(perSecond: $0, burst: writeBurst) },
      reads: rateReads.map { TokenBucket.Rate(perSecond: $0, burst: max(2 * $0, writeBurst)) },
      subscriptions: maxSubscriptions)
    if let natsServers {
      // --durability says when PublishValues' values are acknowledged.
      if let flag = diskFlags.first(where: { $0 != "--durability" }) {
        return .exit(
          code: 2,
          message: "gauged: --nats and \(flag) are exclusive: with --nats the widgets live in"
            + " the NATS bucket, not in a data directory")
      }
      if options.memoryOnly {
        return .exit(
          code: 2,
          message: "gauged: --nats and --memory are exclusive: with --nats the widgets live in"
            + " the NATS bucket")
      }
      // Every instance would write the same gauged- widgets of its own.
      if selfWidgetsGiven, options.selfWidgets {
        return .exit(
          code: 2,
          message: "gauged: --self-widgets on is not available with --nats: every instance"
            + " would overwrite the others' gauged- widgets")
      }
      options.selfWidgets = false
      var connection = NATSConnectionOptions(serverList: natsServers)
      connection.credentialsFile = natsCredentials
      connection.tlsCAFile = natsTLSCA
      options.nats = NATSOptions(
        connection: connection,
        bucket: KVBucketSettings(name: natsBucket, replicas: natsReplicas))
    } else if let flag = natsFlags.first {
      return .exit(code: 2, message: "gauged: \(flag) needs --nats")
    }
    if !options.memoryOnly, options.nats == nil, options.tokensFile != nil {
      return .exit(
        code: 2,
        message: "gauged: --tokens-file is for --memory and --nats servers; with --data-dir,"
          + " tokens live in the data directory (gauged token create NAME --scope SCOPE --data-dir DIR)"
      )
    }
    if options.memoryOnly, let flag = diskFlags.first {
      return .exit(code: 2, message: "gauged: \(flag) has no effect with --memory")
    }
    if options.durability == .strict, diskFlags.contains("--flush-interval-ms") {
      return .exit(
        code: 2,
        message: "gauged: --flush-interval-ms has no effect with --durability strict, "
          + "which commits at once")
    }
    // One connection must be able to hold a whole request message and the
    // response to it.
    let needed = 2 * options.server.maxReceiveMessageBytes
    if !bufferGiven {
      options.server.maxConnectionBufferBytes = max(options.server.maxConnectionBufferBytes, needed)
    }
    let server = options.server
    if server.maxConnectionBufferBytes < needed {
      return .exit(
        code: 2,
        message: "gauged: --max-connection-buffer-bytes (\(server.maxConnectionBufferBytes))"
          + " must be at least twice --max-message-bytes (\(server.maxReceiveMessageBytes))")
    }
    options.server.maxStreamBufferBytes = min(
      server.maxStreamBufferBytes, server.maxConnectionBufferBytes)
    return .run(options)
  }

  private static let valueFlags: Set = [
    "--listen", "--threads", "--data-dir", "--durability", "--flush-interval-ms",
    "--tombstone-retention", "--max-message-bytes", "--max-concurrent-streams",
    "--max-connection-buffer-bytes", "--idle-timeout", "--write-stall-timeout",
    "--keepalive-interval", "--keepalive-timeout", "--min-ping-interval", "--shutdown-grace",
    "--cors-origin", "--metrics", "--metrics-listen", "--self-widgets", "--log-format",
    "--log-level", "--access-log-sample", "--tls-cert", "--tls-key", "--tls-client-ca",
    "--tokens-file", "--rate-limit-writes", "--rate-limit-reads", "--rate-burst",
    "--max-subscriptions", "--nats", "--nats-bucket", "--nats-replicas", "--nats-creds",
    "--nats-tls-ca",
  ]
}

let version = "0.1.0"

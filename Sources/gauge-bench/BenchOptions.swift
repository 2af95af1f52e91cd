import GaugeIO

/// gauge-bench's command line: a scenario and its knobs.
struct BenchOptions {
  enum Scenario: String, CaseIterable {
    case setup, body, revision, unary, publish, fanout, memory, connections
    case sseFanout = "sse-fanout"
    case grpcWebFanout = "grpc-web-fanout"
    case connectFanout = "connect-fanout"
    case clientPublish = "client-publish"
    case clientSubscribe = "client-subscribe"
    case socketFloorServer = "socket-floor-server"
    case socketFloor = "socket-floor"
  }

  var scenario = Scenario.unary
  var target = "127.0.0.1:50051"
  /// `--subscribe-targets`: fan-out's subscribers connect here instead of
  /// to `target` (several gauged sharing widgets), one loop's to each in turn.
  var subscribeTargets: [String] = []
  var loops = 1
  var duration = 5.0
  var warmup = 1.0
  var connections = 4
  var streams = 100
  var widgets = 1
  var subscribers = 1000
  var perConnection = 100
  var rate = 0.0
  var rounds = 10
  var messageBytes = SocketFloorProtocol.defaultMessageBytes
  var serverPID: Int32?
  var output = ""
  var label = ""
  /// `--tls`: connect over TLS; `--cacert`: trusting this CA file.
  var tls = false
  var caFile: String?
  /// `--widget gauge`: fan-out's widget is a gauge with labels, marks and a
  /// gradient instead of a bare value.
  var richWidget = false
  /// `--deltas on`: subscribers ask for value deltas.
  var valueDeltas = false

  static let usage = """
    gauge-bench: load for gauged over real sockets, with the project's own gRPC
    client on event loops (callbacks, no thread per stream). Prints one JSON line.

    Usage: gauge-bench SCENARIO [options]

    Scenarios:
      setup        create --widgets value widgets (bench-00000 ...)
      body         write a gRPC-framed UpdateWidgetRequest for bench-00000 to --out
                   (for h2load -d)
      revision     print bench-00000's revision
      unary        closed-loop UpdateWidget (value only): --connections x --streams
                   calls in flight for --duration after --warmup
      publish      --streams PublishValues streams over --connections connections to
                   --widgets widgets, as fast as flow control allows, for --duration
      fanout       --subscribers on one widget (--per-connection streams per
                   connection); a producer publishes the clock at --rate updates/s
                   (0: full speed) for --duration
      sse-fanout   fanout with --subscribers Server-Sent Event streams instead, one
                   HTTP/1.1 connection each (GET /widgets/events?ids=bench-00000);
                   the producer is the same PublishValues stream
      grpc-web-fanout, connect-fanout
                   fanout with the Subscribe streams speaking gRPC-Web
                   (application/grpc-web+proto) or Connect streaming
                   (application/connect+proto) over the same HTTP/2 connections
      client-publish
                   publish with the client library: one task sends each value
                   through GaugeClient's ValuePublisher to --widgets widgets for
                   --duration, then finishes the stream
      client-subscribe
                   one `for try await` loop over GaugeClient's subscription to
                   --widgets widgets counts the events it consumes while a
                   PublishValues stream writes to them at --rate updates/s (a batch
                   each millisecond; 0: full speed) for --duration
      memory       server RSS (--server-pid) per idle subscription (--subscribers)
                   and per idle connection (--connections)
      connections  --connections connections with one Subscribe each; --rounds
                   single updates, each awaited by every subscriber
      socket-floor-server
                   not gauged: listens on --target with --loops event loops and
                   writes each producer clock reading as one --message-bytes message
                   to every subscriber connection, with no HTTP/2 (prints
                   "listening on ADDRESS", then serves until killed)
      socket-floor the connections scenario against socket-floor-server: the
                   latency loopback TCP alone costs for the same shape

    Options:
      --target ADDRESS       gauged's address, HOST:PORT or unix:PATH (default
                             127.0.0.1:50051)
      --subscribe-targets ADDRESS[,ADDRESS...]
                             fanout: subscribers connect to these instead, each
                             loop's to the next in turn; the producer and the
                             widget stay on --target
      --loops N              event loops for the load (default 1); the fan-out
                             (every protocol) and connections producers get one
                             more of their own
      --duration S           measured seconds (default 5)
      --warmup S             unary: seconds before measuring (default 1)
      --connections N        (default 4)
      --streams N            calls in flight per connection (unary, default 100) or
                             PublishValues streams (publish)
      --widgets N            (default 1)
      --subscribers N        (default 1000)
      --per-connection N     Subscribe streams per connection (default 100)
      --rate N               producer updates per second, 0 for full speed (default 0)
      --rounds N             connections: updates sent one at a time (default 10)
      --message-bytes N      socket floor: bytes per message (default 81, what gauged
                             sends per update in the connections scenario)
      --server-pid PID       memory: the gauged process to read /proc/PID/status of
      --out PATH             body: where to write
      --label TEXT           added to the JSON line as "label"
      --tls on|off           gRPC scenarios over TLS, the certificate checked against
                             the system's CAs and --target's host (default off)
      --cacert FILE          with --tls on: trust the CA certificates in FILE instead
                             of the system's
      --widget value|gauge   fanout: the widget is a bare value (default) or a gauge
                             with a label, subtitle, unit, four marks and a gradient
      --deltas on|off        fanout: subscribers ask for value deltas (default off);
                             the line reports bytes_per_delivery either way
    """

  enum ParseOutcome {
    case run(BenchOptions)
    case exit(code: Int32, message: String)
  }

  static func parse(_ arguments: [String]) -> ParseOutcome {
    var options = BenchOptions()
    var rest = arguments[...]
    guard let first = rest.popFirst() else { return .exit(code: 2, message: usage) }
    if first == "-h" || first == "--help" { return .exit(code: 0, message: usage) }
    guard let scenario = Scenario(rawValue: first) else {
      return .exit(code: 2, message: "gauge-bench: unknown scenario \(first)\n\n\(usage)")
    }
    options.scenario = scenario
    while let flag = rest.popFirst() {
      if flag == "-h" || flag == "--help" { return .exit(code: 0, message: usage) }
      guard let text = rest.popFirst() else {
        return .exit(code: 2, message: "gauge-bench: \(flag) needs a value")
      }
      func count(_ range: ClosedRange<Int>) -> Int? {
        Int(text).flatMap { range.contains($0) ? $0 : nil }
      }
      func seconds() -> Double? {
        Double(text).flatMap { $0 >= 0 && $0 <= 3600 ? $0 : nil }
      }
      var valid = true
      switch flag {
      case "--target":
        valid = (try? SocketAddress(parsing: text)) != nil
        options.target = text
      case "--subscribe-targets":
        options.subscribeTargets = text.split(separator: ",").map(String.init)
        valid =
          !options.subscribeTargets.isEmpty
          && options.subscribeTargets.allSatisfy { (try? SocketAddress(parsing: $0)) != nil }
      case "--loops": valid = set(&options.loops, count(1...64))
      case "--duration": valid = set(&options.duration, seconds())
      case "--warmup": valid = set(&options.warmup, seconds())
      case "--connections": valid = set(&options.connections, count(1...100_000))
      case "--streams": valid = set(&options.streams, count(1...100_000))
      case "--widgets": valid = set(&options.widgets, count(1...1_000_000))
      case "--subscribers": valid = set(&options.subscribers, count(1...1_000_000))
      case "--per-connection": valid = set(&options.perConnection, count(1...100_000))
      case "--rate": valid = set(&options.rate, Double(text).flatMap { $0 >= 0 ? $0 : nil })
      case "--rounds": valid = set(&options.rounds, count(1...10_000))
      case "--message-bytes":
        valid = set(&options.messageBytes, count(SocketFloorProtocol.stampBytes...4096))
      case "--server-pid":
        options.serverPID = Int32(text)
        valid = options.serverPID != nil
      case "--out": options.output = text
      case "--label": options.label = text
      case "--tls":
        valid = text == "on" || text == "off"
        options.tls = text == "on"
      case "--cacert": options.caFile = text
      case "--widget":
        valid = text == "value" || text == "gauge"
        options.richWidget = text == "gauge"
      case "--deltas":
        valid = text == "on" || text == "off"
        options.valueDeltas = text == "on"
      default:
        return .exit(code: 2, message: "gauge-bench: unknown option \(flag)\n\n\(usage)")
      }
      if !valid {
        return .exit(code: 2, message: "gauge-bench: \(flag): \"\(text)\" is out of range")
      }
    }
    return .run(options)
  }

  private static func set<Value>(_ field: inout Value, _ value: Value?) -> Bool {
    guard let value else { return false }
    field = value
    return true
  }
}
